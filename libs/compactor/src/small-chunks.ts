// Merges a stream's adjacent small chunks of one index table into larger ones (logsvc's own:
// Loki's compactor has no such step). Flushes of idle streams and the flush at shutdown leave
// many small chunks; fewer, larger ones cost less at rest and per query.
import type { Labels } from '@logsvc/api';
import {
  type ChunkFormatName,
  type ChunkOptions,
  MemChunk,
  recodeChunk,
  SourceMergeCursor,
} from '@logsvc/chunk';
import type { ChunkRef, ChunkStore, ChunkToStore } from '@logsvc/storage';

const END = (1n << 63n) - 1n;

/** `compactor.compact_small_chunks` and `compactor.small_chunks_target_size`. */
export interface SmallChunkSettings {
  /** Stored bytes a merged chunk grows to at most; a chunk under a quarter of it is small. */
  readonly targetBytes: number;
}

/**
 * Runs of at least two chunks (in the given order) that are each under a quarter of the
 * target, lie wholly inside [startNs, endNs] (so no other table refers to them), and together
 * stay within the target. Chunks in no run are left as they are.
 */
export function smallChunkRuns(
  chunks: readonly ChunkRef[],
  startNs: bigint,
  endNs: bigint,
  targetBytes: number,
): ChunkRef[][] {
  const small = (c: ChunkRef): boolean =>
    c.size < targetBytes / 4 && c.fromNs >= startNs && c.throughNs <= endNs;
  const runs: ChunkRef[][] = [];
  let run: ChunkRef[] = [];
  let bytes = 0;
  const close = (): void => {
    if (run.length >= 2) runs.push(run);
    run = [];
    bytes = 0;
  };
  for (const c of chunks) {
    if (!small(c)) {
      close();
      continue;
    }
    if (bytes + c.size > targetBytes) close();
    run.push(c);
    bytes += c.size;
  }
  close();
  return runs;
}

/**
 * One chunk holding what a query reads from `parts` (given oldest first, as the index orders
 * them): their entries merged by timestamp, ties oldest chunk first, copies of an identical
 * (timestamp, line) dropped, in the chunk format of the schema period at its first entry.
 * Equal inputs give equal bytes, so a merge repeated after a crash stores the same object.
 */
export function mergeChunks(
  parts: readonly Buffer[],
  labels: Labels,
  format: ChunkFormatName,
  options: Partial<ChunkOptions> = {},
): ChunkToStore {
  const sources = parts.map((p) => MemChunk.decode(p));
  const encoding = options.encoding ?? sources[0].options.encoding;
  const out = new MemChunk({ ...options, encoding, targetSize: 0 });
  const cursor = new SourceMergeCursor(
    sources.map((s) => s.iterator(0n, END, 'forward')),
    'forward',
  );
  let entries = 0;
  let fromNs = 0n;
  let throughNs = 0n;
  while (cursor.next()) {
    const ts = cursor.timestampNs;
    if (!out.append(ts, Buffer.from(cursor.line), cursor.structuredMetadata)) continue;
    if (entries === 0) fromNs = ts;
    throughNs = ts;
    entries++;
  }
  out.close();
  return {
    labels,
    fromNs,
    throughNs,
    entries,
    uncompressedSize: out.uncompressedBytes,
    data: recodeChunk(out.encode(), format),
  };
}

/** What merging one stream's chunks did. */
export interface MergedChunks {
  /** The stream's chunks after the merge, in index order. */
  readonly chunks: ChunkRef[];
  /** The chunks merged away (no longer referred to). */
  readonly replaced: ChunkRef[];
  /** New chunks written. */
  readonly written: number;
}

/**
 * Merges the runs `smallChunkRuns` finds among a stream's chunks: each merged chunk is stored
 * (not indexed: the caller's new index file refers to it), and replaces its run in the list.
 */
export async function mergeSmallChunks(
  store: ChunkStore,
  tenant: string,
  labels: Labels,
  chunks: readonly ChunkRef[],
  range: { readonly startNs: bigint; readonly endNs: bigint },
  settings: SmallChunkSettings,
  options: Partial<ChunkOptions> = {},
): Promise<MergedChunks> {
  const runs = smallChunkRuns(chunks, range.startNs, range.endNs, settings.targetBytes);
  if (runs.length === 0) return { chunks: [...chunks], replaced: [], written: 0 };
  const replaced: ChunkRef[] = [];
  const merged: ChunkRef[] = [];
  for (const run of runs) {
    // One at a time and past the chunk cache: a run's bytes are bounded by the target size.
    const parts: Buffer[] = [];
    for (const c of run) parts.push(await store.fetchChunk(tenant, c));
    const format = store.chunkFormatAt(run[0].fromNs) as ChunkFormatName;
    const chunk = mergeChunks(parts, labels, format, options);
    const [ref] = await store.putChunkObjects(tenant, [chunk]);
    merged.push(ref);
    replaced.push(...run);
  }
  // A run holding a merged chunk whose parts are still indexed (a crash before their index
  // files went) merges to that same chunk again: it is kept, not replaced.
  const made = new Set(merged.map((c) => c.key));
  const gone = new Set(replaced.map((c) => c.key).filter((k) => !made.has(k)));
  return {
    chunks: [
      ...new Map(
        [...chunks, ...merged].filter((c) => !gone.has(c.key)).map((c) => [c.key, c]),
      ).values(),
    ],
    replaced: replaced.filter((c) => gone.has(c.key)),
    written: merged.filter((c) => !chunks.some((p) => p.key === c.key)).length,
  };
}
