// A delete request as stored: one record per request_id, split into parts when a request with
// line filters is longer than its max_interval (Loki stores one row per part).
import { randomBytes } from 'node:crypto';

/** One part of a delete request: `[startMs, endMs]`, both inclusive, as Loki's model.Time. */
export interface DeleteRequestPart {
  readonly startMs: number;
  readonly endMs: number;
  readonly processed: boolean;
}

/** How far the compactor got with a request (for the admin UI and for resuming). */
export interface DeleteProgress {
  /** Index tables done, by name; a restarted compactor skips them. */
  readonly tablesDone: readonly string[];
  readonly tablesTotal: number;
  /**
   * Chunks the request touches, counted from the index when the compactor picks it up;
   * absent before (and in records written before logsvc counted them).
   */
  readonly chunksTotal?: number;
  readonly seriesProcessed: number;
  readonly chunksProcessed: number;
  readonly chunksRewritten: number;
  readonly chunksDeleted: number;
  readonly linesDeleted: number;
  /** When the compactor picked the request up (ms); absent before. */
  readonly startedAtMs?: number;
}

export interface DeleteRequestRecord {
  readonly requestId: string;
  readonly tenant: string;
  /** The LogQL log selector, as given. */
  readonly query: string;
  readonly createdAtMs: number;
  readonly parts: readonly DeleteRequestPart[];
  readonly progress?: DeleteProgress;
}

/** Loki's statuses: `received`, `processed`, or `<N>% Complete` for a split request. */
export function requestStatus(record: DeleteRequestRecord): string {
  const processed = record.parts.filter((p) => p.processed).length;
  if (processed === 0) return 'received';
  if (processed === record.parts.length) return 'processed';
  return `${Math.floor((processed / record.parts.length) * 100)}% Complete`;
}

/** The record's whole interval: earliest start, latest end. */
export function requestInterval(record: DeleteRequestRecord): { startMs: number; endMs: number } {
  let startMs = Number.MAX_SAFE_INTEGER;
  let endMs = 0;
  for (const p of record.parts) {
    if (p.startMs < startMs) startMs = p.startMs;
    if (p.endMs > endMs) endMs = p.endMs;
  }
  return { startMs, endMs };
}

/** Eight hex characters, as Loki's request ids. */
export function newRequestId(): string {
  return randomBytes(4).toString('hex');
}

export function isFullyProcessed(record: DeleteRequestRecord): boolean {
  return record.parts.every((p) => p.processed);
}

export const EMPTY_PROGRESS: DeleteProgress = {
  tablesDone: [],
  tablesTotal: 0,
  seriesProcessed: 0,
  chunksProcessed: 0,
  chunksRewritten: 0,
  chunksDeleted: 0,
  linesDeleted: 0,
};

/** What Loki's pending delete request gauges report. */
export interface PendingDeleteRequests {
  /** Unprocessed parts (Loki's rows) whose cancel period is over. */
  readonly count: number;
  /** Whole seconds since the oldest of them came out of its cancel period; 0 without one. */
  readonly oldestAgeSeconds: number;
}

/**
 * Loki's DeleteRequestsManager.updateMetrics over `records` (of tenants whose requests are
 * processed, i.e. `deletion_mode: filter-and-delete`): unprocessed parts of requests past
 * `delete_request_cancel_period`, and how long the oldest of them has been waiting since.
 */
export function pendingDeleteRequests(
  records: Iterable<DeleteRequestRecord>,
  nowMs: number,
  cancelPeriodMs: number,
): PendingDeleteRequests {
  let count = 0;
  let oldestCreatedAtMs: number | undefined;
  for (const r of records) {
    if (r.createdAtMs + cancelPeriodMs > nowMs) continue;
    const unprocessed = r.parts.filter((p) => !p.processed).length;
    if (unprocessed === 0) continue;
    count += unprocessed;
    if (oldestCreatedAtMs === undefined || r.createdAtMs < oldestCreatedAtMs)
      oldestCreatedAtMs = r.createdAtMs;
  }
  const oldestAgeSeconds =
    oldestCreatedAtMs === undefined
      ? 0
      : Math.floor((nowMs - (oldestCreatedAtMs + cancelPeriodMs)) / 1000);
  return { count, oldestAgeSeconds };
}
