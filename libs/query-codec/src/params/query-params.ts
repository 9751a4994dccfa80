/**
 * Query parameters parsed the way Loki's `pkg/loghttp` parses them: the same timestamp forms,
 * defaults, checks and error texts. Times are bigint nanoseconds since the epoch.
 */
import {
  GoSyntaxError,
  goParseFloat,
  goParseInt,
  goRound,
  modelParseDuration,
  parseRfc3339Nano,
} from '@logsvc/gocompat';
import { parseShard, type ShardRef } from '@logsvc/api';
import type { Direction } from '@logsvc/logql';
import { ParamError } from '../param-error';

export { ParamError };

const NS_PER_S = 1_000_000_000n;
const NS_PER_MS = 1_000_000n;
export const HOUR_NS = 3600n * NS_PER_S;

/** Reads one parameter: form value first, then URL (Go's `r.FormValue`); '' when absent. */
export type ParamReader = (name: string) => string | undefined;

/**
 * Loki's `parseTimestamp`: with a `.` → float seconds (fraction rounded to ms); an integer of
 * at most 10 digits → seconds, longer → nanoseconds; else RFC 3339 (nano). Throws the Go error.
 */
export function parseTimestamp(value: string | undefined, def: bigint): bigint {
  if (value === undefined || value === '') return def;
  if (value.includes('.')) {
    const t = goParseFloat(value);
    if (t !== undefined && Number.isFinite(t)) {
      const s = Math.trunc(t);
      const frac = goRound((t - s) * 1000) / 1000;
      return BigInt(s) * NS_PER_S + BigInt(Math.trunc(frac * 1e9));
    }
  }
  let n: bigint;
  try {
    n = goParseInt(value);
  } catch (err) {
    const ts = parseRfc3339Nano(value);
    if (ts !== undefined) return ts;
    throw err;
  }
  return value.length <= 10 ? n * NS_PER_S : n;
}

/** Go's parse error as a ParamError, prefixed with the parameter's name when `what` is given. */
function wrap<T>(what: string | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof GoSyntaxError) {
      throw new ParamError(
        what === undefined ? err.message : `could not parse '${what}' parameter: ${err.message}`,
      );
    }
    throw err;
  }
}

/** A Prometheus duration (`5m`, `1h30m`) as nanoseconds; ParamError naming the parameter. */
function promDurationNs(what: string, text: string): bigint {
  return wrap(what, () => BigInt(modelParseDuration(text)) * 1_000_000n);
}

export interface Bounds {
  startNs: bigint;
  endNs: bigint;
}

/**
 * Loki's `determineBounds`: `end` defaults to now; `start` to min(end, now) minus `since`
 * (default `defaultSince`); an explicit `start` wins over `since`.
 */
export function parseBounds(read: ParamReader, nowNs: bigint, defaultSinceNs: bigint): Bounds {
  const sinceText = read('since');
  const since = sinceText ? promDurationNs('since', sinceText) : defaultSinceNs;
  const endNs = wrap('end', () => parseTimestamp(read('end'), nowNs));
  const endOrNow = endNs > nowNs ? nowNs : endNs;
  const startNs = wrap('start', () => parseTimestamp(read('start'), endOrNow - since));
  return { startNs, endNs };
}

/** `limit`: default 100, must be positive (`limit must be a positive value`). */
export function parseLimit(read: ParamReader, def = 100): number {
  return parsePositiveInt(read('limit'), def);
}

/**
 * Loki's `parseInt` then a positive check: `strconv.Atoi` texts, `limit must be a positive
 * value`; values above uint32 are clamped.
 */
export function parsePositiveInt(text: string | undefined, def: number): number {
  if (!text) return def;
  let n: bigint;
  try {
    n = goParseInt(text, 'Atoi');
  } catch (err) {
    throw new ParamError((err as Error).message);
  }
  if (n <= 0n) throw new ParamError('limit must be a positive value');
  return n > 2n ** 32n - 1n ? 2 ** 32 - 1 : Number(n);
}

/** `direction`: `forward` or `backward` in any case; default backward. */
export function parseDirection(read: ParamReader): Direction {
  const text = read('direction');
  if (!text) return 'backward';
  const lower = text.toLowerCase();
  if (lower === 'forward' || lower === 'backward') return lower;
  throw new ParamError(`invalid direction '${text}'`);
}

/** Float seconds or a Prometheus duration, as Loki reads `step` and `interval`; ns. */
export function parseSecondsOrDuration(text: string): bigint {
  const f = goParseFloat(text);
  if (f !== undefined) {
    const ns = f * 1e9;
    if (!Number.isFinite(ns) || Math.abs(ns) > 9.2e18) {
      throw new ParamError(
        `cannot parse ${JSON.stringify(text)} to a valid duration. It overflows int64`,
      );
    }
    return BigInt(Math.trunc(ns));
  }
  try {
    return BigInt(modelParseDuration(text)) * 1_000_000n;
  } catch {
    throw new ParamError(`cannot parse ${JSON.stringify(text)} to a valid duration`);
  }
}

/** Loki's `defaultQueryRangeStep`: max(floor(range seconds / 250), 1) seconds. */
export function defaultStepNs(startNs: bigint, endNs: bigint): bigint {
  const seconds = Number(endNs - startNs) / 1e9;
  return BigInt(Math.max(Math.floor(seconds / 250), 1)) * NS_PER_S;
}

export interface RangeQueryParams {
  query: string;
  startNs: bigint;
  endNs: bigint;
  limit: number;
  direction: Direction;
  stepNs: bigint;
  intervalNs: bigint;
  shard?: ShardRef;
}

export interface InstantQueryParams {
  query: string;
  timeNs: bigint;
  limit: number;
  direction: Direction;
  shard?: ShardRef;
}

/** Loki's `ParseRangeQuery`, checks and messages included. */
export function parseRangeQuery(read: ParamReader, nowNs: bigint): RangeQueryParams {
  const query = read('query') ?? '';
  const { startNs, endNs } = parseBounds(read, nowNs, HOUR_NS);
  if (endNs < startNs)
    throw new ParamError('end timestamp must not be before or equal to start time');
  const limit = parseLimit(read);
  const direction = parseDirection(read);
  const stepText = read('step');
  const stepNs = stepText ? parseSecondsOrDuration(stepText) : defaultStepNs(startNs, endNs);
  if (stepNs <= 0n) {
    throw new ParamError(
      'zero or negative query resolution step widths are not accepted. Try a positive integer',
    );
  }
  const intervalText = read('interval');
  const intervalNs = intervalText ? parseSecondsOrDuration(intervalText) : 0n;
  if (intervalNs < 0n) throw new ParamError('interval must be >= 0');
  checkResolution(startNs, endNs, stepNs);
  const shard = parseShardParam(read);
  return { query, startNs, endNs, limit, direction, stepNs, intervalNs, ...shard };
}

/**
 * `shards=<index>_of_<of>`: only that shard of the streams (what the query frontend sends a
 * querier). Loki accepts the parameter on every query.
 */
function parseShardParam(read: ParamReader): { shard?: ShardRef } {
  const text = read('shards');
  if (text === undefined || text === '') return {};
  const shard = parseShard(text);
  if (shard === undefined) throw new ParamError(`invalid shard: ${text}`);
  return { shard };
}

/**
 * Loki's `ParseInstantQuery`, checking in its order (limit, time, shards, direction); a bad
 * `time` is Go's error alone, which Loki does not prefix as it does `start` and `end`.
 */
export function parseInstantQuery(read: ParamReader, nowNs: bigint): InstantQueryParams {
  const query = read('query') ?? '';
  const limit = parseLimit(read);
  const timeNs = wrap(undefined, () => parseTimestamp(read('time'), nowNs));
  const shard = parseShardParam(read);
  return { query, timeNs, limit, direction: parseDirection(read), ...shard };
}

/** Current time in nanoseconds. */
export function nowNs(): bigint {
  return BigInt(Date.now()) * NS_PER_MS;
}

/** Loki's `errStepTooSmall`, for every range endpoint (query_range, index/volume_range). */
export function checkResolution(startNs: bigint, endNs: bigint, stepNs: bigint): void {
  if ((endNs - startNs) / stepNs > 11000n) {
    throw new ParamError(
      'exceeded maximum resolution of 11,000 points per time series. Try increasing the value of the step parameter',
    );
  }
}
