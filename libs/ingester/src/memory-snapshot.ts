// The in-process ingester's streams as data a query worker thread reads as if it read them
// here: the main thread copies the matching chunks' bytes into one buffer it transfers, and
// the worker rebuilds read-only chunks from them.
import { inShard, type Labels, type Matcher, type ShardRef } from '@logsvc/api';
import { type ChunkSnapshot, MemChunk } from '@logsvc/chunk';
import { chunkOverlaps, type QueryableStream, type TimeRange } from './query';

/** Which of a tenant's streams, over which time range, a query worker asks memory for. */
export interface MemorySelect {
  readonly matchers: readonly Matcher[];
  readonly fromNs: bigint;
  readonly throughNs: bigint;
  readonly shard?: ShardRef;
}

/** Where one part of a chunk lies in `MemorySnapshot.bytes`: offset and length. */
export type ByteSpan = readonly [number, number];

/** One chunk of a snapshot: a closed chunk has its blocks only, a head chunk may have both. */
export interface ChunkSpans {
  readonly closed: boolean;
  readonly blocks: ByteSpan | null;
  readonly head: ByteSpan | null;
}

export interface StreamSpans {
  readonly labels: Labels;
  readonly fingerprint: number;
  /** Closed chunks oldest first, then the head chunk (only those in range). */
  readonly chunks: readonly ChunkSpans[];
}

/** The streams of one select as plain data, their chunks' bytes in one transferable buffer. */
export interface MemorySnapshot {
  /** Whether an ingester answered; none was attached: the query reads nothing from memory. */
  readonly reached: boolean;
  readonly streams: readonly StreamSpans[];
  /** Every chunk's bytes back to back: put it in the postMessage transfer list. */
  readonly bytes: ArrayBuffer;
}

export const UNREACHED: MemorySnapshot = { reached: false, streams: [], bytes: new ArrayBuffer(0) };

interface Taken {
  readonly closed: boolean;
  readonly snapshot: ChunkSnapshot;
}

/**
 * The chunks in `range` of the streams in `shard`, as they are now: closed chunks by their
 * flush encoding when it exists (else their blocks, copied), head chunks by `MemChunk.snapshot`.
 */
export function snapshotStreams(
  streams: readonly QueryableStream[],
  range: TimeRange,
  shard: ShardRef | undefined,
): MemorySnapshot {
  const taken: { stream: QueryableStream; chunks: Taken[] }[] = [];
  let total = 0;
  const size = (b: Buffer | null): number => (b === null ? 0 : b.length);
  for (const stream of streams) {
    if (!inShard(stream.labels, shard)) continue;
    const chunks: Taken[] = [];
    for (const c of stream.closed) {
      if (!chunkOverlaps(c.chunk, range)) continue;
      const snapshot = c.encoded !== null ? { blocks: c.encoded, head: null } : c.chunk.snapshot();
      chunks.push({ closed: true, snapshot });
    }
    if (stream.head !== null && chunkOverlaps(stream.head, range)) {
      chunks.push({ closed: false, snapshot: stream.head.snapshot() });
    }
    if (chunks.length === 0) continue;
    for (const c of chunks) total += size(c.snapshot.blocks) + size(c.snapshot.head);
    taken.push({ stream, chunks });
  }
  const bytes = new ArrayBuffer(total);
  const out = new Uint8Array(bytes);
  let pos = 0;
  const place = (b: Buffer | null): ByteSpan | null => {
    if (b === null) return null;
    out.set(b, pos);
    pos += b.length;
    return [pos - b.length, b.length];
  };
  const result: StreamSpans[] = taken.map(({ stream, chunks }) => ({
    labels: stream.labels,
    fingerprint: stream.fingerprint,
    chunks: chunks.map((c) => ({
      closed: c.closed,
      blocks: place(c.snapshot.blocks),
      head: place(c.snapshot.head),
    })),
  }));
  return { reached: true, streams: result, bytes };
}

/** Read-only streams over a snapshot's bytes (no copy: chunks' blocks are views into them). */
export function snapshotToStreams(snapshot: MemorySnapshot): QueryableStream[] {
  const view = (span: ByteSpan | null): Buffer | null =>
    span === null ? null : Buffer.from(snapshot.bytes, span[0], span[1]);
  return snapshot.streams.map((s) => {
    const closed: { chunk: MemChunk; encoded: Buffer | null }[] = [];
    let head: MemChunk | null = null;
    for (const c of s.chunks) {
      const parts = { blocks: view(c.blocks), head: view(c.head) };
      const chunk = MemChunk.fromSnapshot(parts);
      if (c.closed) closed.push({ chunk, encoded: parts.blocks });
      else head = chunk;
    }
    return { labels: s.labels, fingerprint: s.fingerprint, head, closed };
  });
}

/** Uncompressed bytes of the streams' chunks in `range`: what a query over them would read. */
export function bytesInRange(streams: readonly QueryableStream[], range: TimeRange): number {
  let bytes = 0;
  for (const s of streams) {
    for (const c of s.closed) if (chunkOverlaps(c.chunk, range)) bytes += c.chunk.uncompressedBytes;
    if (s.head !== null && chunkOverlaps(s.head, range)) bytes += s.head.uncompressedBytes;
  }
  return bytes;
}
