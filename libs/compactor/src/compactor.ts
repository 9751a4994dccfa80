// One compaction run over every tenant: index tables merged, retention applied, delete
// requests past their cancel period processed, small chunks merged; then the sweeper deletes chunks whose markers
// are older than retention_delete_delay.
import type { ChunkOptions } from '@logsvc/chunk';
import type { ChunkRef, ChunkStore, IndexTableRef } from '@logsvc/storage';
import {
  type DeleteProgress,
  type DeleteRequestRecord,
  EMPTY_PROGRESS,
  requestInterval,
} from './delete-request';
import { countRequestChunks } from './chunks-total';
import type { DeletionMode } from './delete-requests-api';
import type { DeleteRequestsStore } from './delete-requests-store';
import { LineDeleter } from './line-deleter';
import type { ChunkMarkers, MarkedChunk } from './markers';
import type { PassJournal } from './pass-journal';
import { type RetentionLimits, RetentionRules } from './retention';
import type { SmallChunkSettings } from './small-chunks';
import { type TablePassResult, compactTable } from './table-pass';

export interface CompactorLimits extends RetentionLimits {
  readonly deletion_mode: DeletionMode;
}

/** What the app counts (Loki's metric names are in the app's metrics module). */
export interface CompactorEvents {
  tableDone?(tenant: string, table: string, result: TablePassResult): void;
  requestProcessed?(tenant: string, requestId: string): void;
  chunksSwept?(count: number, seconds: number): void;
}

export interface CompactorOptions {
  readonly store: ChunkStore;
  readonly requests: DeleteRequestsStore;
  readonly markers: ChunkMarkers;
  /**
   * Records each table pass's removed and added chunks before its merged file is written, so a
   * pass cut short is replayed by the next run (see pass-journal.ts). Without it, a crash
   * between a merged file and the deletion of its inputs leaves replaced refs indexed.
   */
  readonly journal?: PassJournal | null;
  readonly limits: (tenant: string) => CompactorLimits;
  /** `compactor.retention_enabled`: retention and delete processing run only then, as in Loki. */
  readonly retentionEnabled: boolean;
  readonly retentionDeleteDelayMs: number;
  readonly deleteRequestCancelPeriodMs: number;
  readonly nowMs: () => number;
  readonly chunkOptions?: Partial<ChunkOptions>;
  /** Names merged index files; default `compactor`. */
  readonly uploader?: string;
  readonly events?: CompactorEvents;
  /**
   * `compactor.compact_small_chunks`: set, each table's adjacent small chunks of a stream are
   * merged into larger ones; the parts are deleted `retentionDeleteDelayMs` later.
   */
  readonly smallChunks?: SmallChunkSettings | null;
  /** Test hook: after a table's merged chunks are stored, before its merged file is written. */
  readonly afterChunksWritten?: (tenant: string, table: string) => Promise<void>;
  /** Test hook: after a table's merged file is written, before its inputs are deleted. */
  readonly afterMergedWrite?: (tenant: string, table: string) => Promise<void>;
}

export interface RunSummary {
  tenants: number;
  tablesCompacted: number;
  filesMerged: number;
  chunksExpired: number;
  chunksDeleted: number;
  chunksRewritten: number;
  linesDeleted: number;
  smallChunksMerged: number;
  mergedChunksWritten: number;
  requestsProcessed: number;
  chunksSwept: number;
}

interface ActiveRequest {
  record: DeleteRequestRecord;
  progress: DeleteProgress;
  tables: Set<string>;
  canceled: boolean;
}

function tableRangeMs(t: IndexTableRef): [number, number] {
  const start = t.number * t.periodMs;
  return [start, start + t.periodMs - 1];
}

export class Compactor {
  private running: Promise<RunSummary> | null = null;

  constructor(private readonly options: CompactorOptions) {}

  /** One run; concurrent calls share the run in progress. */
  run(): Promise<RunSummary> {
    this.running ??= this.runOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async runOnce(): Promise<RunSummary> {
    const summary: RunSummary = {
      tenants: 0,
      tablesCompacted: 0,
      filesMerged: 0,
      chunksExpired: 0,
      chunksDeleted: 0,
      chunksRewritten: 0,
      linesDeleted: 0,
      smallChunksMerged: 0,
      mergedChunksWritten: 0,
      requestsProcessed: 0,
      chunksSwept: 0,
    };
    for (const tenant of await this.options.store.maintenance.tenants()) {
      summary.tenants++;
      await this.runTenant(tenant, summary);
    }
    summary.chunksSwept = await this.sweep();
    return summary;
  }

  /** Deletes the chunks of markers older than retention_delete_delay; returns how many. */
  async sweep(): Promise<number> {
    const started = process.hrtime.bigint();
    const m = this.options.store.maintenance;
    const done = await this.options.markers.sweep(
      this.options.nowMs(),
      this.options.retentionDeleteDelayMs,
      (c) => m.deleteChunk(c.tenant, c.store, c.key),
    );
    if (done.length > 0) {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.options.events?.chunksSwept?.(done.length, seconds);
    }
    return done.length;
  }

  private async runTenant(tenant: string, summary: RunSummary): Promise<void> {
    const o = this.options;
    const nowMs = o.nowMs();
    const limits = o.limits(tenant);
    const retention = o.retentionEnabled ? new RetentionRules(limits) : null;
    const tables = await o.store.maintenance.tables(tenant);
    const active = await this.pickUpRequests(tenant, limits, tables, nowMs);
    const rewrites = new Map<string, ChunkRef | null>();
    const removed = new Map<string, MarkedChunk>();
    for (const table of tables) {
      const needing = active.filter((a) => !a.canceled && a.tables.has(table.name));
      const deleter =
        needing.length > 0
          ? new LineDeleter(
              needing.map((a) => a.record),
              true,
            )
          : null;
      const result = await compactTable({
        store: o.store,
        tenant,
        table,
        nowMs,
        uploader: o.uploader ?? 'compactor',
        retention,
        deleter,
        rewrites,
        smallChunks: o.smallChunks ?? null,
        journal: o.journal ?? null,
        ...(o.chunkOptions ? { chunkOptions: o.chunkOptions } : {}),
        ...(o.afterChunksWritten
          ? { afterChunksWritten: () => o.afterChunksWritten!(tenant, table.name) }
          : {}),
        ...(o.afterMergedWrite
          ? { afterMergedWrite: () => o.afterMergedWrite!(tenant, table.name) }
          : {}),
      });
      for (const c of result.removed) removed.set(`${c.store}\u0000${c.key}`, c);
      if (result.filesMerged > 0) summary.tablesCompacted++;
      summary.filesMerged += result.filesMerged;
      summary.chunksExpired += result.chunksExpired;
      summary.chunksDeleted += result.chunksDeleted;
      summary.chunksRewritten += result.chunksRewritten;
      summary.linesDeleted += result.linesDeleted;
      summary.smallChunksMerged += result.smallChunksMerged;
      summary.mergedChunksWritten += result.mergedChunksWritten;
      o.events?.tableDone?.(tenant, table.name, result);
      for (const a of needing) {
        a.progress = {
          ...a.progress,
          tablesDone: [...a.progress.tablesDone, table.name],
          seriesProcessed: a.progress.seriesProcessed + result.seriesProcessed,
          chunksProcessed: a.progress.chunksProcessed + result.chunksProcessed,
          chunksRewritten: a.progress.chunksRewritten + result.chunksRewritten,
          chunksDeleted: a.progress.chunksDeleted + result.chunksDeleted,
          linesDeleted: a.progress.linesDeleted + result.linesDeleted,
        };
        a.tables.delete(table.name);
        await this.saveProgress(a, false);
      }
    }
    // Chunks leave the store only after every table of the run stopped referring to them.
    await o.markers.mark([...removed.values()], nowMs);
    // Marked: the passes' records are done with.
    if (o.journal) for (const table of tables) await o.journal.clear(tenant, table.name);
    for (const a of active) {
      if (a.canceled || a.tables.size > 0) continue;
      if (await this.saveProgress(a, true)) {
        summary.requestsProcessed++;
        o.events?.requestProcessed?.(tenant, a.record.requestId);
      }
    }
  }

  /**
   * The tenant's requests to process now: deletion_mode filter-and-delete, retention on, the
   * cancel period over, some part unprocessed. Each is marked started (no cancel without force
   * from now on) with the tables it still needs.
   */
  private async pickUpRequests(
    tenant: string,
    limits: CompactorLimits,
    tables: readonly IndexTableRef[],
    nowMs: number,
  ): Promise<ActiveRequest[]> {
    const o = this.options;
    if (!o.retentionEnabled || limits.deletion_mode !== 'filter-and-delete') return [];
    const out: ActiveRequest[] = [];
    for (const record of await o.requests.list(tenant)) {
      if (record.parts.every((p) => p.processed)) continue;
      if (record.createdAtMs + o.deleteRequestCancelPeriodMs > nowMs) continue;
      const { startMs, endMs } = requestInterval(record);
      const overlapping = tables
        .filter((t) => {
          const [s, e] = tableRangeMs(t);
          return s <= endMs && e >= startMs;
        })
        .map((t) => t.name);
      const prior = record.progress ?? EMPTY_PROGRESS;
      const done = new Set(prior.tablesDone);
      const remaining = overlapping.filter((t) => !done.has(t));
      // Counted once, from the index of the tables still to do (plus what is done already).
      const chunksTotal =
        prior.chunksTotal ??
        prior.chunksProcessed +
          (await countRequestChunks(
            o.store,
            record,
            tables.filter((t) => remaining.includes(t.name)),
          ));
      const progress: DeleteProgress = {
        ...prior,
        tablesTotal: Math.max(prior.tablesTotal, overlapping.length),
        chunksTotal,
        startedAtMs: prior.startedAtMs ?? nowMs,
      };
      const a: ActiveRequest = {
        record,
        progress,
        tables: new Set(remaining),
        canceled: false,
      };
      if (await this.saveProgress(a, false)) out.push(a);
    }
    return out;
  }

  /**
   * Writes the request's progress (and, when `processed`, marks its parts processed), unless
   * it was canceled meanwhile: then it is dropped from this run. Returns whether it was saved.
   */
  private async saveProgress(a: ActiveRequest, processed: boolean): Promise<boolean> {
    const { requests } = this.options;
    const current = await requests.get(a.record.tenant, a.record.requestId);
    if (current === null || current.parts.every((p) => p.processed)) {
      a.canceled = true;
      return false;
    }
    a.record = {
      ...current,
      parts: processed ? current.parts.map((p) => ({ ...p, processed: true })) : current.parts,
      progress: a.progress,
    };
    await requests.put(a.record);
    return true;
  }
}
