import type { QueryResult, ShardRef } from '@logsvc/api';
import type { Overrides } from '@logsvc/config';
import {
  type Direction,
  type Expr,
  type RunQueryResult,
  newQueryStats,
  parseExpr,
  runQuery,
} from '@logsvc/logql';
import {
  checkEntriesLimit,
  checkQueryLength,
  checkQueryRange,
  checkStreamMatchers,
  clampLookback,
  type QueryLimits,
  queryLimits,
} from './query-limits';
import type { QuerySources } from './query-sources';
import { ParamError } from './errors';
import { alignToStep, type StepAlignedRange } from './step-align';
import { QueryAbortedError } from './errors';

/** A `query` or `query_range` request after its parameters are parsed. */
export interface QueryRequest {
  readonly kind: 'instant' | 'range';
  readonly query: string;
  /**
   * Range queries: `[startNs, endNs)` for logs, `[startNs, endNs]` aligned to the step for
   * metrics; instant queries are evaluated at `endNs`.
   */
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly stepNs: bigint;
  readonly intervalNs: bigint;
  readonly limit: number;
  readonly direction: Direction;
  readonly tenants: readonly string[];
  readonly categorizeLabels: boolean;
  /** Aborts when the client goes away. */
  readonly clientSignal: AbortSignal;
  /** Refuse metric queries before running them (Loki's legacy `/api/prom/query`). */
  readonly logQueriesOnly?: boolean;
  /** Only the streams of this shard (a sub-query of the query frontend). */
  readonly shard?: ShardRef;
}

/**
 * Runs LogQL queries under the tenants' query limits (`max_entries_limit_per_query`,
 * `max_query_length`, `max_query_lookback`, `max_query_series`, `query_timeout`,
 * `max_query_memory_bytes`), over the
 * ingesters and the store.
 */
export class QueryExecutor {
  constructor(
    private readonly sources: QuerySources,
    private readonly overrides: Overrides,
    private readonly now: () => bigint,
  ) {}

  async run(request: QueryRequest): Promise<RunQueryResult> {
    const prepared = prepareQuery(request, this.overrides, this.now());
    if (prepared.empty) return emptyAnswer(request, prepared.isLogQuery);
    const { expr, limits, bounds } = prepared;
    const timeout = limits.query_timeout > 0 ? AbortSignal.timeout(limits.query_timeout) : null;
    const signal = timeout
      ? AbortSignal.any([request.clientSignal, timeout])
      : request.clientSignal;
    try {
      return await runQuery({
        query: request.query,
        expr,
        kind: request.kind,
        startNs: bounds.startNs,
        endNs: bounds.endNs,
        stepMs: Number(bounds.stepNs) / 1e6,
        intervalMs: Number(request.intervalNs) / 1e6,
        limit: request.limit,
        direction: request.direction,
        tenants: request.tenants.length === 1 ? request.tenants[0] : request.tenants,
        source: request.shard === undefined ? this.sources.all : this.sources.shard(request.shard),
        signal,
        maxSeries: limits.max_query_series > 0 ? limits.max_query_series : Infinity,
        maxMemoryBytes: limits.max_query_memory_bytes,
        categorizeLabels: request.categorizeLabels,
      });
    } catch (err) {
      if (signal.aborted) throw new QueryAbortedError(timeout?.aborted === true);
      throw err;
    }
  }
}

/** A query checked against its tenants' limits, with the range it is evaluated over. */
export type PreparedQuery =
  | { readonly empty: true; readonly isLogQuery: boolean }
  | {
      readonly empty: false;
      readonly expr: Expr;
      readonly isLogQuery: boolean;
      readonly limits: QueryLimits;
      /** Clamped to `max_query_lookback`; range metric queries aligned to the step. */
      readonly bounds: StepAlignedRange;
    };

/**
 * Parses a query and checks it against the tenants' limits (`max_entries_limit_per_query`,
 * `max_query_length`), clamps it to `max_query_lookback` (`empty` when nothing is left) and
 * aligns range metric queries to the step, as Loki's frontend does before splitting.
 */
export function prepareQuery(
  request: QueryRequest,
  overrides: Overrides,
  nowNs: bigint,
  options: PrepareOptions = {},
): PreparedQuery {
  const expr = parseExpr(request.query);
  const isLogQuery = expr.kind === 'LogSelectorExpr';
  if (request.logQueriesOnly && !isLogQuery) {
    throw new ParamError('legacy endpoints only support log queries');
  }
  const limits = queryLimits(request.tenants.map((t) => overrides.forTenant(t)));
  if (isLogQuery) checkEntriesLimit(limits, request.limit);
  if (request.kind === 'range') checkQueryLength(limits, request.startNs, request.endNs);
  checkStreamMatchers(limits, expr);
  if (request.kind === 'range' && !isLogQuery) checkQueryRange(limits, expr);
  const clamped = clampLookback(limits, request.startNs, request.endNs, nowNs);
  if (clamped === null) return { empty: true, isLogQuery };
  const bounds =
    request.kind === 'range' && !isLogQuery
      ? alignToStep(
          clamped.startNs,
          options.alignQueriesWithStep === true
            ? stepFloor(clamped.endNs, request.stepNs)
            : clamped.endNs,
          request.stepNs,
        )
      : { ...clamped, stepNs: request.stepNs };
  return { empty: false, expr, isLogQuery, limits, bounds };
}

export interface PrepareOptions {
  /**
   * `query_range.align_queries_with_step`: the frontend's step_align middleware, which rounds
   * the end down to a multiple of the step (in milliseconds) before splitting rounds it up.
   */
  readonly alignQueriesWithStep?: boolean;
}

/** Loki's StepAlignMiddleware on the end: `(end_ms / step_ms) * step_ms`. */
function stepFloor(endNs: bigint, stepNs: bigint): bigint {
  const stepMs = stepNs / 1_000_000n;
  if (stepMs <= 0n) return endNs;
  return (endNs / 1_000_000n / stepMs) * stepMs * 1_000_000n;
}

/** Loki's answer to a query wholly older than `max_query_lookback`: an empty result. */
export function emptyAnswer(
  request: Pick<QueryRequest, 'kind'>,
  isLogQuery: boolean,
): RunQueryResult {
  const result: QueryResult = isLogQuery
    ? { type: 'streams', streams: [] }
    : request.kind === 'range'
      ? { type: 'matrix', series: [] }
      : { type: 'vector', samples: [] };
  return { resultType: result.type, result, stats: newQueryStats() };
}
