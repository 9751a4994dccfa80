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
import type { RetentionRules } from './retention';

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
  /** Test hook: runs after the merged file is written, before the inputs are deleted. */
  readonly afterMergedWrite?: () => Promise<void>;
}

/**
 * Crash-safe: new chunks are stored first, then the merged index file, and only then are the
 * input files deleted. A crash in between leaves inputs and merged file side by side; readers
 * merge them (series by labels, chunks by key) and the next run merges them again.
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
    removed: [] as MarkedChunk[],
  };
  if (files.length === 0) return result;
  const retention = ctx.retention?.enabled ? ctx.retention : null;
  if (files.length === 1 && retention === null && ctx.deleter === null) return result;

  let changed = false;
  const out: SeriesChunkRefs[] = [];
  const remove = (c: ChunkRef): void => {
    changed = true;
    result.removed.push({
      tenant,
      store: store.maintenance.chunkStoreName(c.fromNs),
      key: c.key,
    });
  };
  for (const s of mergeSeries(files.map((f) => f.series))) {
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
      const unique = new Map(chunks.map((c) => [c.key, c]));
      out.push({ ...s, chunks: [...unique.values()].sort(compareChunkRefs) });
    }
  }
  if (!changed && files.length === 1) return result;
  if (out.length > 0) await store.maintenance.writeIndexFile(tenant, table, ctx.uploader, out);
  await ctx.afterMergedWrite?.();
  for (const f of files) await store.maintenance.deleteIndexFile(tenant, table, f.key);
  result.filesMerged = files.length;
  return result;
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
