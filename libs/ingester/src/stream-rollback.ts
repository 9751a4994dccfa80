import type { LogEntry } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import type { Stream } from './stream';

const MIN_NS = -(2n ** 63n);
const MAX_NS = 2n ** 63n - 1n;

/** Identity of an entry for removal: timestamp and line (what de-duplication compares). */
const keyOf = (ts: bigint, line: Buffer): string => `${ts} ${line.toString('base64')}`;

/**
 * Takes entries a failed push stored back out of its stream, so a push answered with an error
 * leaves no trace in memory. Chunks holding them are rebuilt without them. A chunk is not
 * flushed before its records settle (`ClosedChunk.walSeq`), so none of them is being flushed;
 * one that were would be left alone. Returns how many entries were removed.
 */
export function removeEntries(stream: Stream, entries: readonly LogEntry[]): number {
  const wanted = new Map<string, number>();
  for (const e of entries) {
    const k = keyOf(e.timestampNs, e.line);
    wanted.set(k, (wanted.get(k) ?? 0) + 1);
  }
  let removed = 0;
  const rebuild = (chunk: MemChunk): MemChunk | null => {
    const kept = new MemChunk(chunk.options);
    let dropped = 0;
    // Equal timestamps come out in insertion order, so the rebuilt chunk keeps that order.
    const it = chunk.iterator(MIN_NS, MAX_NS, 'forward');
    while (it.next()) {
      const k = keyOf(it.timestampNs, it.line);
      const n = wanted.get(k) ?? 0;
      if (n > 0) {
        wanted.set(k, n - 1);
        dropped++;
        continue;
      }
      kept.append(it.timestampNs, Buffer.from(it.line), it.structuredMetadata);
    }
    removed += dropped;
    if (dropped === 0) return chunk;
    return kept.entryCount === 0 ? null : kept;
  };

  if (stream.head) stream.head = rebuild(stream.head);
  for (let i = stream.closed.length - 1; i >= 0; i--) {
    const c = stream.closed[i];
    if (c.flushing || c.flushedAtMs !== null) continue;
    const chunk = rebuild(c.chunk);
    if (chunk === c.chunk) continue;
    if (chunk === null) {
      stream.closed.splice(i, 1);
    } else {
      chunk.close();
      stream.closed[i] = { ...c, chunk, encoded: null };
    }
  }
  if (removed > 0) restoreLast(stream);
  return removed;
}

/** The ordering and de-duplication state after entries were removed: the newest one left. */
function restoreLast(stream: Stream): void {
  const chunks = [...stream.closed.map((c) => c.chunk), ...(stream.head ? [stream.head] : [])];
  let last: { ts: bigint; line: Buffer } | null = null;
  for (const c of chunks) {
    if (c.entryCount === 0) continue;
    const it = c.iterator(c.maxTimeNs, c.maxTimeNs + 1n, 'backward');
    if (it.next() && (last === null || it.timestampNs >= last.ts)) {
      last = { ts: it.timestampNs, line: Buffer.from(it.line) };
    }
  }
  stream.newestNs = last?.ts ?? -1n;
  stream.lastTimestampNs = last?.ts ?? 0n;
  stream.lastLine = last?.line ?? null;
}
