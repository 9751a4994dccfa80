import { inShard, matchesLabels, type Labels, type Matcher, type ShardRef } from '@logsvc/api';
import {
  type ChunkSplit,
  type Direction,
  type EntryCursor,
  type MemChunk,
  prefilterOptions,
} from '@logsvc/chunk';
import type { Instance } from './instance';
import { MergedCursor } from './merge-cursor';
import type { Stream } from './stream';

/** Counters a query over memory adds to, for the `ingester` part of Loki's stats. */
export interface IngesterQueryStats {
  totalChunksMatched: number;
  /** Uncompressed bytes and entries of matched chunks that are still open (head chunks). */
  headChunkBytes: number;
  headChunkLines: number;
  /** Compressed bytes of matched closed chunks. */
  compressedBytes: number;
}

export function newQueryStats(): IngesterQueryStats {
  return { totalChunksMatched: 0, headChunkBytes: 0, headChunkLines: 0, compressedBytes: 0 };
}

/** How a query reads memory beyond its stream matchers and time range. */
export interface ReadOptions {
  /** Only entries whose line contains these bytes (a query's line prefilter). */
  readonly lineContains?: Buffer;
  /** Without `lineContains`: only entries whose line contains one of these. */
  readonly lineContainsAny?: readonly Buffer[];
  /** Also give each chunk's parts (`StreamQueryResult.chunks`). */
  readonly split?: boolean;
  /** The reader keeps no line past its cursor's next entry (`CursorOptions.transientLines`). */
  readonly transientLines?: boolean;
  /** Only the streams of this query shard. */
  readonly shard?: ShardRef;
}

/**
 * One chunk in range as two parts captured when the query started, which merged (the blocks
 * first) give the chunk's entries: its cut blocks, compressed, and its head block.
 */
export type ChunkRead = ChunkSplit;

/** One stream's entries in the queried range. */
export interface StreamQueryResult {
  readonly labels: Labels;
  readonly fingerprint: number;
  /** One cursor per chunk in range, oldest chunk first. */
  readonly cursors: EntryCursor[];
  /** The chunks' entries merged into `direction` order, duplicates across chunks dropped. */
  readonly entries: EntryCursor;
  /** With `ReadOptions.split`: the chunks in range, oldest first, in parts. */
  readonly chunks?: ChunkRead[];
}

/** A time range in nanoseconds: `fromNs` inclusive, `throughNs` exclusive (Loki's [start, end)). */
export interface TimeRange {
  readonly fromNs: bigint;
  readonly throughNs: bigint;
}

/**
 * What a query reads of a stream: a `Stream`, or a read-only copy of one rebuilt from a
 * `MemorySnapshot` in a query worker.
 */
export interface QueryableStream {
  readonly labels: Labels;
  readonly fingerprint: number;
  readonly head: MemChunk | null;
  /** Closed chunks, oldest first, with their encoding when it was made already. */
  readonly closed: readonly { readonly chunk: MemChunk; readonly encoded: Buffer | null }[];
}

export function chunkOverlaps(c: MemChunk, range: TimeRange): boolean {
  return c.entryCount > 0 && c.minTimeNs < range.throughNs && c.maxTimeNs >= range.fromNs;
}

function streamOverlaps(s: Stream, range: TimeRange): boolean {
  if (s.head && chunkOverlaps(s.head, range)) return true;
  for (const c of s.closed) if (chunkOverlaps(c.chunk, range)) return true;
  return false;
}

/**
 * Streams of the instance with data in `range` (or held at all, with no range) whose labels
 * all `matchers` accept.
 */
export function matchingStreams(
  instance: Instance | undefined,
  matchers: readonly Matcher[],
  range: TimeRange | undefined,
): Stream[] {
  if (!instance) return [];
  const out: Stream[] = [];
  for (const s of instance.streams.values()) {
    if ((range === undefined || streamOverlaps(s, range)) && matchesLabels(matchers, s.labels))
      out.push(s);
  }
  return out;
}

export function queryStreams(
  streams: readonly QueryableStream[],
  range: TimeRange,
  direction: Direction,
  stats: IngesterQueryStats,
  options: ReadOptions = {},
): StreamQueryResult[] {
  const { fromNs, throughNs } = range;
  const cursorOptions = prefilterOptions(options);
  const out: StreamQueryResult[] = [];
  for (const s of streams) {
    if (!inShard(s.labels, options.shard)) continue;
    const cursors: EntryCursor[] = [];
    const chunks: ChunkRead[] | undefined = options.split === true ? [] : undefined;
    const read = (chunk: MemChunk, encoded: Buffer | null): void => {
      cursors.push(chunk.iterator(fromNs, throughNs, direction, cursorOptions));
      if (chunks === undefined) return;
      const parts = chunk.split(fromNs, throughNs, direction, cursorOptions);
      // A closed chunk has no head: its encoding (kept for the flush) holds the same blocks.
      chunks.push(encoded === null ? parts : { ...parts, encodeBlocks: () => encoded });
    };
    for (const c of s.closed) {
      if (!chunkOverlaps(c.chunk, range)) continue;
      stats.totalChunksMatched++;
      stats.compressedBytes += c.chunk.compressedBytes;
      read(c.chunk, c.encoded);
    }
    if (s.head && chunkOverlaps(s.head, range)) {
      stats.totalChunksMatched++;
      stats.headChunkBytes += s.head.uncompressedBytes;
      stats.headChunkLines += s.head.entryCount;
      read(s.head, null);
    }
    if (cursors.length === 0) continue;
    const entries = cursors.length === 1 ? cursors[0] : new MergedCursor(cursors, direction);
    out.push({
      labels: s.labels,
      fingerprint: s.fingerprint,
      cursors,
      entries,
      ...(chunks === undefined ? {} : { chunks }),
    });
  }
  return out;
}

/** Sorted label names over the streams. */
export function labelNamesOf(streams: readonly Stream[]): string[] {
  const names = new Set<string>();
  for (const s of streams) for (const p of s.labels) names.add(p.name);
  return [...names].sort();
}

/** Sorted values of one label over the streams (streams without it contribute nothing). */
export function labelValuesOf(streams: readonly Stream[], name: string): string[] {
  const values = new Set<string>();
  for (const s of streams) {
    for (const p of s.labels) {
      if (p.name === name) {
        values.add(p.value);
        break;
      }
    }
  }
  return [...values].sort();
}
