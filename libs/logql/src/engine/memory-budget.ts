/**
 * The memory one query evaluation may hold: the entries of its answer (formatted lines and
 * label sets), the line each stream being merged holds, the series and samples a metric query
 * builds. Loki has no such limit (its `line_format`/`label_format` may build any size, and a
 * query over a few thousand such lines can take a process's heap); here the query fails with
 * a 400 naming `max_query_memory_bytes` as soon as it would hold more, whatever thread runs it.
 */
import type { Labels, ResultStream } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { formatBytes } from '../syntax/units';

/** Bytes counted for one label or series on top of its characters (object and map overhead). */
const LABEL_OVERHEAD = 32;
const SERIES_OVERHEAD = 96;

/** `max_query_memory_bytes` exceeded. */
export class QueryMemoryLimitError extends LogsvcError {
  constructor(readonly limit: number) {
    super(
      'bad_request',
      `the query exceeds the memory limit for its answer and working set (limit: ${formatBytes(limit)}, max_query_memory_bytes): ` +
        'lower its limit, narrow its time range or selectors, or make line_format/label_format build less',
    );
    this.name = 'QueryMemoryLimitError';
  }
}

/** Counts what one evaluation holds; `charge` throws once it passes `limit` (0: no limit). */
export class MemoryBudget {
  private heldBytes = 0;

  constructor(readonly limit: number) {}

  get held(): number {
    return this.heldBytes;
  }

  /** Adds `bytes` held (negative: released). */
  charge(bytes: number): void {
    this.heldBytes += bytes;
    if (bytes > 0 && this.limit > 0 && this.heldBytes > this.limit) {
      throw new QueryMemoryLimitError(this.limit);
    }
  }

  /** Adds a series whose canonical key is `key` and whose labels are `labels`. */
  chargeSeries(key: string, labels: Labels): void {
    this.charge(seriesBytes(key, labels));
  }
}

/** Bytes counted for an entry of a log answer on top of its line (its array and timestamp). */
export const ENTRY_OVERHEAD = 64;

/** What a log answer holds, approximately: its lines and label sets. */
export function streamsBytes(streams: readonly ResultStream[]): number {
  let n = 0;
  for (const s of streams) {
    n += seriesBytes('', s.labels);
    for (const e of s.entries) n += ENTRY_OVERHEAD + e[1].length;
  }
  return n;
}

/** A budget that never refuses (callers that pass none). */
export function unlimitedBudget(): MemoryBudget {
  return new MemoryBudget(0);
}

/** What a series of `labels` with canonical key `key` holds, approximately. */
export function seriesBytes(key: string, labels: Labels): number {
  let n = SERIES_OVERHEAD + key.length;
  for (const l of labels) n += LABEL_OVERHEAD + l.name.length + l.value.length;
  return n;
}
