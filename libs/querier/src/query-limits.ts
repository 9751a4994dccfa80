import type { TenantLimits } from '@logsvc/config';
import { type Expr, formatDuration, logSelectors, walk } from '@logsvc/logql';
import { goDurationString } from '@logsvc/gocompat';
import { LogsvcError } from '@logsvc/errors';
import { ParamError } from './errors';

/** The query limits of a request: for several tenants, the strictest non-zero of each. */
export interface QueryLimits {
  max_entries_limit_per_query: number;
  max_query_length: number;
  max_query_series: number;
  max_query_lookback: number;
  query_timeout: number;
  max_query_memory_bytes: number;
  /** 0 or absent: no limit. */
  max_query_range?: number;
  /** 0 or absent: no limit. */
  max_streams_matchers_per_query?: number;
}

type LimitName = keyof QueryLimits;

export function queryLimits(perTenant: readonly TenantLimits[]): QueryLimits {
  const smallest = (name: LimitName): number => {
    const set = perTenant.map((l) => l[name] as number).filter((v) => v > 0);
    return set.length === 0 ? 0 : Math.min(...set);
  };
  return {
    max_entries_limit_per_query: smallest('max_entries_limit_per_query'),
    max_query_length: smallest('max_query_length'),
    max_query_series: smallest('max_query_series'),
    max_query_lookback: smallest('max_query_lookback'),
    query_timeout: smallest('query_timeout'),
    max_query_memory_bytes: smallest('max_query_memory_bytes'),
    max_query_range: smallest('max_query_range'),
    max_streams_matchers_per_query: smallest('max_streams_matchers_per_query'),
  };
}

/**
 * A range aggregation over a window longer than `max_query_range` in a range query: Loki's
 * engine (`checkIntervalLimit`), `[interval] value exceeds limit: [2h] > [1h]`, which Loki
 * answers with a 500 (the error is of no kind its handler maps to 400). Instant queries are
 * not checked: Loki's frontend splits them by `split_instant_metric_queries_by_interval`
 * first, so each split's window is within the limit and the query is answered.
 */
export function checkQueryRange(limits: QueryLimits, expr: Expr): void {
  const maxMs = limits.max_query_range ?? 0;
  if (maxMs <= 0) return;
  walk(expr, (node) => {
    if (node.kind === 'LogRange' && node.rangeNs > maxMs * 1e6) {
      throw new LogsvcError(
        'internal',
        `[interval] value exceeds limit: [${formatDuration(node.rangeNs)}] > [${formatDuration(maxMs * 1e6)}]`,
      );
    }
  });
}

/** More label matchers in a stream selector than `max_streams_matchers_per_query`: Loki's 400. */
export function checkStreamMatchers(limits: QueryLimits, expr: Expr): void {
  const max = limits.max_streams_matchers_per_query ?? 0;
  if (max <= 0) return;
  for (const selector of logSelectors(expr)) {
    const count = selector.selector.matchers.length;
    if (count > max) {
      throw new ParamError(
        `max streams matchers per query exceeded, matchers-count > limit (${count} > ${max})`,
      );
    }
  }
}

/** `limit` above `max_entries_limit_per_query` (log queries): Loki's 400. */
export function checkEntriesLimit(limits: QueryLimits, limit: number): void {
  const max = limits.max_entries_limit_per_query;
  if (max > 0 && limit > max) {
    throw new ParamError(
      `max entries limit per query exceeded, limit > max_entries_limit_per_query (${limit} > ${max})`,
    );
  }
}

/** A range longer than `max_query_length`: Loki's 400. */
export function checkQueryLength(limits: QueryLimits, startNs: bigint, endNs: bigint): void {
  const maxMs = limits.max_query_length;
  if (maxMs > 0 && endNs - startNs > BigInt(maxMs) * 1_000_000n) {
    throw new ParamError(
      `the query time range exceeds the limit (query length: ${goDurationString(endNs - startNs)}, limit: ${formatDuration(maxMs * 1e6)})`,
    );
  }
}

/**
 * `max_query_lookback` moves the start forward to now - lookback; null when the whole range is
 * older (Loki answers such a query with an empty result).
 */
export function clampLookback(limits: QueryLimits, startNs: bigint, endNs: bigint, nowNs: bigint) {
  const lookback = limits.max_query_lookback;
  if (lookback <= 0) return { startNs, endNs };
  const oldest = nowNs - BigInt(lookback) * 1_000_000n;
  if (endNs < oldest) return null;
  return { startNs: startNs < oldest ? oldest : startNs, endNs };
}

/**
 * Loki's `validateQueryTimeRangeLimits` for label, label values and series requests: the start
 * moves forward to now - `max_query_lookback`; a range longer than `max_query_length` is
 * refused; a range that ends before it starts (a reversed one, or one wholly older than the
 * lookback) is refused with Loki's text, which names the lookback whatever the cause.
 */
export function metadataRange(
  limits: QueryLimits,
  startNs: bigint,
  endNs: bigint,
  nowNs: bigint,
): { startNs: bigint; endNs: bigint } {
  const lookback = limits.max_query_lookback;
  const oldest = nowNs - BigInt(lookback) * 1_000_000n;
  const from = lookback > 0 && startNs < oldest ? oldest : startNs;
  checkQueryLength(limits, from, endNs);
  if (endNs < from) {
    throw new ParamError(
      `this data is no longer available, it is past now - max_query_lookback (${formatDuration(lookback * 1e6)})`,
    );
  }
  return { startNs: from, endNs };
}
