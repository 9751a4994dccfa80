// One index table of one tenant in one compaction run: merge its files into one, drop chunks
// retention expired, and apply delete requests (whole chunks dropped, others rewritten).
import type { Labels } from '@logsvc/api';
import type { ChunkOptions } from '@logsvc/chunk';
import {
  type ChunkRef,
  type ChunkStore,
  type IndexTableRef,
  type SeriesChunkRefs,
  compareChunkRefs,
  mergeSeries,
} from '@logsvc/storage';
import { rewriteChunk } from './chunk-rewriter';
import type { LineDeleter } from './line-deleter';
import type { MarkedChunk } from './markers';
import { type PassJournal, replayPass } from './pass-journal';
import type { RetentionRules } from './retention';
import { mergeSmallChunks, type SmallChunkSettings } from './small-chunks';

const NS_PER_MS = 1_000_000n;

/** What one table pass did. */
export interface TablePassResult {
  /** Index files merged (0 when the table was left as it was). */
  readonly filesMerged: number;
  readonly chunksExpired: number;
  readonly seriesProcessed: number;
  readonly chunksProcessed: number;
  readonly chunksDeleted: number;
  readonly chunksRewritten: number;
  readonly linesDeleted: number;
  /** Small chunks merged into larger ones (`compactor.compact_small_chunks`). */
  readonly smallChunksMerged: number;
  /** The larger chunks they were merged into. */
  readonly mergedChunksWritten: number;
  /** Chunks no index of this table refers to any more. */
  readonly removed: readonly MarkedChunk[];
}

export interface TablePassContext {
  readonly store: ChunkStore;
  readonly tenant: string;
  readonly table: IndexTableRef;
  readonly nowMs: number;
  /** Names the merged index file. */
  readonly uploader: string;
  readonly retention: RetentionRules | null;
  /** The unprocessed delete requests this table still needs, or null. */
  readonly deleter: LineDeleter | null;
  /** Rewrites done earlier in the run, by old chunk key (null: the chunk went away). */
  readonly rewrites: Map<string, ChunkRef | null>;
  readonly chunkOptions?: Partial<ChunkOptions>;
  /** Set: a stream's adjacent small chunks inside the table are merged into larger ones. */
  readonly smallChunks?: SmallChunkSettings | null;
  /** Where the pass records what it removes and adds before it writes the merged file. */
  readonly journal?: PassJournal | null;
  /** Test hook: runs after the merged chunks are stored, before the merged file is written. */
  readonly afterChunksWritten?: () => Promise<void>;
  /** Test hook: runs after the merged file is written, before the inputs are deleted. */
  readonly afterMergedWrite?: () => Promise<void>;
}

/**
 * Crash-safe: new chunks are stored first, then the merged index file, and only then are the
 * input files deleted. A crash in between leaves inputs and merged file side by side; readers
 * merge them (series by labels, chunks by key; a stream's chunks entry by entry, dropping
 * copies, so a merged chunk beside its parts reads as the parts alone) and the next run
 * merges them again. Chunks no longer referred to are returned in `removed`, for the caller
 * to mark and delete after a delay.
 */
export async function compactTable(ctx: TablePassContext): Promise<TablePassResult> {
  const { store, tenant, table } = ctx;
  const files = await store.maintenance.readTable(tenant, table);
  const result = {
    filesMerged: 0,
    chunksExpired: 0,
    seriesProcessed: 0,
    chunksProcessed: 0,
    chunksDeleted: 0,
    chunksRewritten: 0,
    linesDeleted: 0,
    smallChunksMerged: 0,
    mergedChunksWritten: 0,
    removed: [] as MarkedChunk[],
  };
  const journal = ctx.journal ?? null;
  const replayed = journal === null ? null : await journal.load(tenant, table.name);
  if (replayed !== null) result.removed.push(...replayed.removed);
  if (files.length === 0) return result;
  const retention = ctx.retention?.enabled ? ctx.retention : null;
  const smallChunks = ctx.smallChunks ?? null;
  const idle = retention === null && ctx.deleter === null && smallChunks === null;
  if (files.length === 1 && idle && replayed === null) return result;
  const startMs = table.number * table.periodMs;
  const range = {
    startNs: BigInt(startMs) * NS_PER_MS,
    endNs: BigInt(startMs + table.periodMs) * NS_PER_MS - 1n,
  };

  let changed = replayed !== null;
  const out: SeriesChunkRefs[] = [];
  const added: SeriesChunkRefs[] = [];
  const remove = (c: ChunkRef): void => {
    changed = true;
    result.removed.push({
      tenant,
      store: store.maintenance.chunkStoreName(c.fromNs),
      key: c.key,
    });
  };
  const merged = mergeSeries(files.map((f) => f.series));
  for (const s of replayed === null ? merged : mergeSeries([replayPass(merged, replayed)])) {
    const deleted = ctx.deleter?.forStream(s.labels) ?? null;
    const chunks: ChunkRef[] = [];
    let touched = false;
    for (const c of s.chunks) {
      if (retention?.expired(s.labels, Number(c.throughNs / NS_PER_MS), ctx.nowMs)) {
        result.chunksExpired++;
        remove(c);
        continue;
      }
      if (deleted === null || ctx.deleter === null) {
        chunks.push(c);
        continue;
      }
      const kept = await applyDeletes(ctx, s.labels, c, result);
      if (kept === undefined) {
        chunks.push(c);
        continue;
      }
      touched = true;
      result.chunksProcessed++;
      if (kept === null) {
        result.chunksDeleted++;
        remove(c);
      } else if (kept.key !== c.key) {
        result.chunksRewritten++;
        remove(c);
        chunks.push(kept);
      } else {
        chunks.push(c);
      }
    }
    if (touched) result.seriesProcessed++;
    if (chunks.length > 0) {
      const unique = [...new Map(chunks.map((c) => [c.key, c])).values()].sort(compareChunkRefs);
      const kept =
        smallChunks === null
          ? unique
          : await mergeSmall(ctx, s.labels, unique, range, smallChunks, result, remove);
      out.push({ ...s, chunks: kept });
      const had = new Set(s.chunks.map((c) => c.key));
      const fresh = kept.filter((c) => !had.has(c.key));
      if (fresh.length > 0) added.push({ ...s, chunks: fresh });
    }
  }
  if (!changed && files.length === 1) return result;
  // A chunk this table still refers to is never deleted (e.g. a merge that gave a chunk back).
  const referred = new Set(out.flatMap((s) => s.chunks.map((c) => c.key)));
  result.removed = result.removed.filter((c) => !referred.has(c.key));
  await ctx.afterChunksWritten?.();
  if (journal !== null && (result.removed.length > 0 || added.length > 0)) {
    await journal.save(tenant, table.name, { removed: result.removed, added });
  }
  if (out.length > 0) await store.maintenance.writeIndexFile(tenant, table, ctx.uploader, out);
  await ctx.afterMergedWrite?.();
  for (const f of files) await store.maintenance.deleteIndexFile(tenant, table, f.key);
  result.filesMerged = files.length;
  return result;
}

/** The stream's chunks with its small ones merged; counts them, and `remove`s the parts. */
async function mergeSmall(
  ctx: TablePassContext,
  labels: Labels,
  chunks: ChunkRef[],
  range: { readonly startNs: bigint; readonly endNs: bigint },
  settings: SmallChunkSettings,
  result: { smallChunksMerged: number; mergedChunksWritten: number },
  remove: (c: ChunkRef) => void,
): Promise<ChunkRef[]> {
  const merged = await mergeSmallChunks(
    ctx.store,
    ctx.tenant,
    labels,
    chunks,
    range,
    settings,
    ctx.chunkOptions,
  );
  for (const c of merged.replaced) remove(c);
  result.smallChunksMerged += merged.replaced.length;
  result.mergedChunksWritten += merged.written;
  return merged.chunks.sort(compareChunkRefs);
}

/**
 * The chunk that replaces `c` after the delete requests: `c` itself (nothing deleted), a new
 * chunk, null (all of it deleted), or undefined when no request touches the chunk's range.
 */
async function applyDeletes(
  ctx: TablePassContext,
  labels: Labels,
  c: ChunkRef,
  result: { linesDeleted: number },
): Promise<ChunkRef | null | undefined> {
  const deleter = ctx.deleter as LineDeleter;
  const deleted = deleter.forStream(labels, c.fromNs, c.throughNs);
  if (deleted === null) return undefined;
  const done = ctx.rewrites.get(c.key);
  if (done !== undefined) return done;
  let replacement: ChunkRef | null;
  if (deleter.coversWholeChunk(labels, c.fromNs, c.throughNs)) {
    result.linesDeleted += c.entries;
    replacement = null;
  } else {
    const data = await ctx.store.fetchChunk(ctx.tenant, c);
    const rewritten = rewriteChunk(data, labels, deleted, ctx.chunkOptions);
    if (rewritten.kind === 'unchanged') replacement = c;
    else if (rewritten.kind === 'empty') {
      result.linesDeleted += rewritten.linesDeleted;
      replacement = null;
    } else {
      result.linesDeleted += rewritten.linesDeleted;
      [replacement] = await ctx.store.putChunkObjects(ctx.tenant, [rewritten.chunk]);
    }
  }
  ctx.rewrites.set(c.key, replacement);
  return replacement;
}
