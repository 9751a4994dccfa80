// The parameters of a create request, checked as Loki's request_handler.go checks them.
import { parseRfc3339Nano, timeParseDuration } from '@logsvc/gocompat';
import { parseLogSelector } from '@logsvc/logql';
import { DeleteRequestError } from './errors';
import { hasLineOrLabelFilter } from './line-deleter';

export interface CreateDeleteParams {
  readonly query?: string;
  readonly start?: string;
  readonly end?: string;
  readonly max_interval?: string;
}

/** A validated create request: the query and its parts' `[startMs, endMs]`. */
export interface PlannedDeleteRequest {
  readonly query: string;
  readonly parts: ReadonlyArray<{ readonly startMs: number; readonly endMs: number }>;
}

const MS_PER_S = 1000;
const NS_PER_MS = 1_000_000n;

/**
 * Checks a create request and splits it: a query with filters is split into parts of at most
 * `max_interval` (default: `delete_max_interval`, 0 = no limit), as Loki does. Throws
 * DeleteRequestError (400) with Loki's texts.
 */
export function planDeleteRequest(
  params: CreateDeleteParams,
  nowMs: number,
  maxIntervalMs: number,
): PlannedDeleteRequest {
  const bad = (text: string): never => {
    throw new DeleteRequestError(400, text);
  };
  const query = params.query ?? '';
  if (query === '') bad('query not set');
  let filtered = false;
  try {
    filtered = hasLineOrLabelFilter(parseLogSelector(query, false));
  } catch {
    bad('invalid query expression');
  }
  if ((params.start ?? '') === '') bad('start time not set');
  const startMs = parseTime(params.start ?? '', nowMs);
  if (startMs === undefined) bad('invalid start time: require unix seconds or RFC3339 format');
  const endMs = parseTime(params.end ?? '', nowMs);
  if (endMs === undefined) bad('invalid end time: require unix seconds or RFC3339 format');
  const start = startMs as number;
  const end = endMs as number;
  if (end > nowMs) bad('deletes in the future are not allowed');
  if (start > end) bad("start time can't be greater than end time");

  let intervalMs = 0;
  if (filtered) intervalMs = interval(params.max_interval ?? '', start, end, maxIntervalMs, bad);
  if (intervalMs === 0 || intervalMs >= end - start) {
    return { query, parts: [{ startMs: start, endMs: end }] };
  }
  return { query, parts: forInterval(intervalMs, start, end) };
}

function interval(
  text: string,
  startMs: number,
  endMs: number,
  maxIntervalMs: number,
  bad: (text: string) => never,
): number {
  const span = endMs - startMs;
  if (text === '') {
    if (span < MS_PER_S)
      bad('difference between start time and end time must be at least one second');
    return maxIntervalMs === 0 ? span : Math.min(span, maxIntervalMs);
  }
  let ms = 0;
  try {
    ms = Number(timeParseDuration(text) / NS_PER_MS);
  } catch {
    bad("invalid max_interval: valid time units are 's', 'm', 'h'");
  }
  if (ms < MS_PER_S) bad("invalid max_interval: valid time units are 's', 'm', 'h'");
  if (maxIntervalMs !== 0 && ms > maxIntervalMs) {
    bad(`max_interval can't be greater than ${goDuration(maxIntervalMs)}`);
  }
  if (ms > span) {
    bad(`max_interval can't be greater than the interval to be deleted (${goDuration(span)})`);
  }
  return ms;
}

/**
 * Loki's util.ForInterval with endTimeInclusive=false: parts aligned to multiples of the
 * interval, the first starting at `start`, each ending where the next starts (overlapping by
 * their shared millisecond, so nothing between two parts is missed).
 */
export function forInterval(
  intervalMs: number,
  startMs: number,
  endMs: number,
): Array<{ startMs: number; endMs: number }> {
  const out: Array<{ startMs: number; endMs: number }> = [];
  for (let s = startMs - (startMs % intervalMs); s < endMs; s += intervalMs) {
    const e = Math.min(s + intervalMs, endMs);
    out.push({ startMs: out.length === 0 ? startMs : s, endMs: e });
  }
  return out;
}

/** RFC 3339 or exactly ten digits of Unix seconds (Loki accepts nothing else); empty = now. */
function parseTime(text: string, nowMs: number): number | undefined {
  if (text === '') return nowMs;
  const ns = parseRfc3339Nano(text);
  if (ns !== undefined) return Number(ns / NS_PER_MS);
  if (!/^\d{10}$/.test(text)) return undefined;
  return Number(text) * MS_PER_S;
}

/** Go's time.Duration String() for whole milliseconds (e.g. `24h0m0s`, `1m30s`, `500ms`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < MS_PER_S) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
