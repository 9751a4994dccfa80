// Create, list and cancel, as Loki's request_handler.go and the spec's state table say.
import type {
  DeleteRequestListItem,
  DeleteRequestProgress,
  DeleteRequestStatus,
} from '@logsvc/api';
import { type CreateDeleteParams, planDeleteRequest } from './delete-params';
import {
  type DeleteRequestRecord,
  EMPTY_PROGRESS,
  newRequestId,
  requestInterval,
  requestStatus,
} from './delete-request';
import type { DeleteRequestsStore } from './delete-requests-store';
import { DELETE_TEXTS, DeleteRequestError } from './errors';

export type DeletionMode = 'disabled' | 'filter-only' | 'filter-and-delete';

export interface DeleteRequestsApiOptions {
  readonly store: DeleteRequestsStore;
  /** `limits_config.deletion_mode` of a tenant (runtime overrides included). */
  readonly deletionMode: (tenant: string) => DeletionMode;
  /** `compactor.delete_request_cancel_period`. */
  readonly cancelPeriodMs: number;
  /** `compactor.delete_max_interval` (0 = no limit). */
  readonly maxIntervalMs: number;
  readonly nowMs: () => number;
  /** Called after a request is stored (metrics). */
  readonly onCreated?: (tenant: string) => void;
}

const seconds = (ms: number): number => ms / 1000;

/** The delete API of one process; every call is for the authenticated tenant. */
export class DeleteRequestsApi {
  constructor(private readonly options: DeleteRequestsApiOptions) {}

  /** Refuses with 403 when the tenant's deletion_mode is `disabled` (Loki's middleware). */
  checkEnabled(tenant: string): void {
    if (this.options.deletionMode(tenant) === 'disabled') {
      throw new DeleteRequestError(403, DELETE_TEXTS.notAvailable);
    }
  }

  async create(tenant: string, params: CreateDeleteParams): Promise<DeleteRequestRecord> {
    this.checkEnabled(tenant);
    const now = this.options.nowMs();
    const plan = planDeleteRequest(params, now, this.options.maxIntervalMs);
    let requestId = newRequestId();
    while ((await this.options.store.get(tenant, requestId)) !== null) requestId = newRequestId();
    const record: DeleteRequestRecord = {
      requestId,
      tenant,
      query: plan.query,
      createdAtMs: now,
      parts: plan.parts.map((p) => ({ ...p, processed: false })),
    };
    await this.options.store.put(record);
    this.options.onCreated?.(tenant);
    return record;
  }

  /** Loki's listing: processed and unprocessed requests (canceled ones are gone), oldest first. */
  async list(tenant: string): Promise<DeleteRequestListItem[]> {
    this.checkEnabled(tenant);
    return (await this.options.store.list(tenant)).map((r) => {
      const { startMs, endMs } = requestInterval(r);
      return {
        request_id: r.requestId,
        start_time: seconds(startMs),
        end_time: seconds(endMs),
        query: r.query,
        status: requestStatus(r) as DeleteRequestStatus,
        created_at: seconds(r.createdAtMs),
      };
    });
  }

  /** Progress of every request of the tenant (logsvc's admin view). */
  async progress(tenant: string): Promise<DeleteRequestProgress[]> {
    this.checkEnabled(tenant);
    const now = this.options.nowMs();
    return (await this.options.store.list(tenant)).map((r) => {
      const p = r.progress ?? EMPTY_PROGRESS;
      return {
        request_id: r.requestId,
        status: requestStatus(r) as DeleteRequestStatus,
        cancelable: !this.pickedUp(r, now) && r.parts.every((x) => !x.processed),
        process_after: seconds(r.createdAtMs + this.options.cancelPeriodMs),
        tables_total: p.tablesTotal,
        tables_done: p.tablesDone.length,
        chunks_total: p.chunksTotal ?? null,
        series_processed: p.seriesProcessed,
        chunks_processed: p.chunksProcessed,
        chunks_rewritten: p.chunksRewritten,
        chunks_deleted: p.chunksDeleted,
        lines_deleted: p.linesDeleted,
      };
    });
  }

  /**
   * The spec's state table: an unprocessed request not yet picked up (within
   * `delete_request_cancel_period`) is canceled; one picked up or partially complete only with
   * `force`, its processed parts staying (listed as processed); a processed one never.
   */
  async cancel(tenant: string, requestId: string, force: boolean): Promise<void> {
    this.checkEnabled(tenant);
    const record = await this.options.store.get(tenant, requestId);
    if (record === null) throw new DeleteRequestError(404, DELETE_TEXTS.notFound);
    const unprocessed = record.parts.filter((p) => !p.processed);
    if (unprocessed.length === 0) throw new DeleteRequestError(400, DELETE_TEXTS.processed);
    const started =
      unprocessed.length !== record.parts.length || this.pickedUp(record, this.options.nowMs());
    if (started && !force) throw new DeleteRequestError(400, DELETE_TEXTS.partial);
    const kept = record.parts.filter((p) => p.processed);
    if (kept.length === 0) {
      await this.options.store.remove(tenant, requestId);
      return;
    }
    await this.options.store.put({ ...record, parts: kept });
  }

  /** Picked up: the compactor started on it, or may have (its cancel period is over). */
  private pickedUp(record: DeleteRequestRecord, nowMs: number): boolean {
    return (
      record.progress?.startedAtMs !== undefined ||
      record.createdAtMs + this.options.cancelPeriodMs <= nowMs
    );
  }
}
