/**
 * The in-process benches' shared data set and source: the bench's mixed lines (100 streams of
 * 2,960 lines over the hour before now, 57.7 MB) in chunks held in memory, answered to the
 * LogQL engine without a server.
 */
import { matchesLabels } from '@logsvc/api';
import { type EntryCursor, MemChunk, recodeChunk, SourceMergeCursor } from '@logsvc/chunk';
import { type LogSource, type SelectParams, type SourceStream } from '@logsvc/logql';
import { LogGenerator } from '../gen';

export const MS = 1_000_000n;
export const LINES_PER_STREAM = 2960;
export const STREAMS = 100;

export type LogEntry = Parameters<LogGenerator['entries']>[2][number];

export interface ChunkStream {
  readonly labels: SourceStream['labels'];
  readonly chunks: MemChunk[];
}

/** One stream of the mixed data set: its labels and its entries in time order. */
export interface MixedStream {
  readonly labels: SourceStream['labels'];
  readonly entries: LogEntry[];
}

/** The mixed data set's streams, their lines spread over the hour ending at `endMs`. */
export function mixedStreams(): { streams: MixedStream[]; endMs: number } {
  const endMs = Date.now();
  const gen = new LogGenerator({
    seed: 42,
    streams: STREAMS,
    startMs: endMs - 3_600_000,
    spacingMs: 3_600_000 / LINES_PER_STREAM,
    mixedStreams: true,
  });
  const streams: MixedStream[] = [];
  for (let s = 0; s < STREAMS; s++) {
    const entries: LogEntry[] = [];
    gen.entries(s, LINES_PER_STREAM, entries);
    streams.push({ labels: gen.streams[s].labels, entries });
  }
  return { streams, endMs };
}

/**
 * A source over `streams`: each chunk's cursor comes from `open`, a stream's cursors merged
 * in time order; `adjust` may change a stream's merged cursor before the engine reads it.
 */
export function chunkSource(
  streams: readonly ChunkStream[],
  open: (chunk: MemChunk, params: SelectParams) => EntryCursor = (c, p) =>
    c.iterator(p.fromNs, p.throughNs, p.direction),
  adjust?: (entries: EntryCursor) => void,
): LogSource {
  return {
    select(p) {
      const out: SourceStream[] = [];
      for (const s of streams) {
        if (!matchesLabels(p.matchers, s.labels)) continue;
        const cursors = s.chunks.map((c) => open(c, p));
        const entries: EntryCursor =
          cursors.length === 1 ? cursors[0] : new SourceMergeCursor(cursors, p.direction);
        adjust?.(entries);
        out.push({ labels: s.labels, entries });
      }
      return Promise.resolve(out);
    },
  };
}

/**
 * The in-memory chunk of `entries` as `clients` push clients sharing the stream append them:
 * client c takes batches c, c + clients, …, of 20 lines, the clients take turns by batch, and
 * every other round goes in reverse client order; entries reach the chunk interleaved and out
 * of order. With `retries`, every 25th batch is sent again 8 rounds later (a push retried
 * after timeouts), so the chunk holds copies the ingester did not see in its head or previous
 * block.
 */
export function appendAsClients(
  entries: readonly { timestampNs: bigint; line: Buffer }[],
  clients: number,
  retries = false,
): MemChunk {
  const chunk = new MemChunk({ encoding: 'snappy' });
  const batches: (typeof entries)[] = [];
  for (let b = 0; b < entries.length; b += 20) batches.push(entries.slice(b, b + 20));
  const retried = new Map<number, (typeof entries)[]>();
  for (let round = 0; round * clients < batches.length; round++) {
    const turn = batches.slice(round * clients, (round + 1) * clients);
    if (round % 2 === 0) turn.reverse();
    for (const [k, part] of turn.entries()) {
      for (const e of part) chunk.append(e.timestampNs, e.line, []);
      if (retries && (round * clients + k) % 25 === 0) {
        retried.set(round + 8, [...(retried.get(round + 8) ?? []), part]);
      }
    }
    for (const part of retried.get(round) ?? []) {
      for (const e of part) chunk.append(e.timestampNs, e.line, []);
    }
  }
  return chunk;
}

export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

/** CPU milliseconds (user + system) this process spends in `f`. */
export function cpuMs(f: () => void): number {
  const before = process.cpuUsage();
  f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The same streams with each chunk recoded as a flushed columnar chunk. */
export function asColumnar(streams: readonly ChunkStream[]): ChunkStream[] {
  return streams.map((s) => ({
    labels: s.labels,
    chunks: s.chunks.map((c) => MemChunk.decode(recodeChunk(c.encode(), 'columnar'))),
  }));
}
