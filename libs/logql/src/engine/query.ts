/**
 * The engine's entry point for `query` and `query_range`: parses the query, sends log queries
 * to the log evaluator and metric queries to the metric evaluator, over one tenant's source
 * or several tenants', and fills the statistics summary.
 */
import { resultEntryCount, type QueryResult } from '@logsvc/api';
import type { Expr } from '../syntax/ast';
import { parseExpr } from '../syntax/parser';
import { evaluateLogQuery } from './logs/evaluate';
import { MemoryBudget } from './memory-budget';
import { ERR_INSTANT_LOG_QUERY, UnsupportedQueryError } from './logs/errors';
import { evaluateMetricQuery } from './metrics';
import type { Direction, LogSource } from './source';
import { multiTenantSource } from './sources/multi-tenant';
import { newQueryStats, type QueryStats } from './stats';

export interface RunQueryParams {
  readonly query: string;
  /** `query` already parsed, when the caller needed it first (it is not parsed again). */
  readonly expr?: Expr;
  /** `instant` evaluates at `endNs` (`startNs` is ignored); `range` over `[startNs, endNs]`. */
  readonly kind: 'instant' | 'range';
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** Step of range metric queries; default Loki's: max(floor(range in s / 250), 1) s. */
  readonly stepMs?: number;
  /** `interval` of range log queries: minimum distance between returned entries. */
  readonly intervalMs?: number;
  /** Entries returned at most by a log query, across all streams. */
  readonly limit: number;
  readonly direction: Direction;
  /** The tenant, or several tenants for a multi-tenant query (`a|b`). */
  readonly tenants: string | readonly string[];
  /** Asked once per tenant with that tenant in `SelectParams.tenant`, or a source per tenant. */
  readonly source: LogSource | ((tenant: string) => LogSource);
  readonly signal?: AbortSignal;
  /** `max_query_series` for metric queries (default 500). */
  readonly maxSeries?: number;
  /**
   * `max_query_memory_bytes`: what the evaluation may hold of lines, labels, series and samples
   * (see MemoryBudget); 0 or absent: no limit.
   */
  readonly maxMemoryBytes?: number;
  /** Log queries: group by stream labels and attach label categories to each entry. */
  readonly categorizeLabels?: boolean;
  /** Seconds the query waited before running (reported as `queueTime`). */
  readonly queueTimeSeconds?: number;
}

export interface RunQueryResult {
  readonly resultType: QueryResult['type'];
  readonly result: QueryResult;
  readonly stats: QueryStats;
}

const NS_PER_MS = 1_000_000;
const NS_PER_S = 1_000_000_000n;

/** Throws ParseError for invalid LogQL, UnsupportedQueryError / MetricQueryError for queries
 * that cannot be answered, QueryCanceledError when `signal` aborts. */
export async function runQuery(params: RunQueryParams): Promise<RunQueryResult> {
  const started = performance.now();
  const expr = params.expr ?? parseExpr(params.query);
  const stats = newQueryStats();
  const tenants = typeof params.tenants === 'string' ? [params.tenants] : [...params.tenants];
  const source = sourceFor(tenants, params.source);
  const tenant = tenants.join('|');
  const budget = new MemoryBudget(params.maxMemoryBytes ?? 0);

  let result: QueryResult;
  if (expr.kind === 'LogSelectorExpr') {
    if (params.kind === 'instant') throw new UnsupportedQueryError(ERR_INSTANT_LOG_QUERY);
    result = await evaluateLogQuery(
      expr,
      {
        tenant,
        startNs: params.startNs,
        endNs: params.endNs,
        limit: params.limit,
        direction: params.direction,
        intervalNs: msToNs(params.intervalMs ?? 0),
        budget,
        ...(params.signal === undefined ? {} : { signal: params.signal }),
        ...(params.categorizeLabels === undefined
          ? {}
          : { categorizeLabels: params.categorizeLabels }),
      },
      source,
      stats,
    );
  } else {
    const stepNs =
      params.kind === 'instant'
        ? 0n
        : params.stepMs !== undefined
          ? msToNs(params.stepMs)
          : defaultStepNs(params.startNs, params.endNs);
    result = await evaluateMetricQuery(
      expr,
      {
        tenant,
        startNs: params.kind === 'instant' ? params.endNs : params.startNs,
        endNs: params.endNs,
        stepNs,
        kind: params.kind,
        budget,
        ...(params.signal === undefined ? {} : { signal: params.signal }),
        ...(params.maxSeries === undefined ? {} : { maxSeries: params.maxSeries }),
      },
      source,
      stats,
    );
  }
  stats.summary.queueTime = params.queueTimeSeconds ?? 0;
  computeSummary(stats, (performance.now() - started) / 1000, resultEntryCount(result));
  return { resultType: result.type, result, stats };
}

function sourceFor(
  tenants: readonly string[],
  source: LogSource | ((tenant: string) => LogSource),
): LogSource {
  if (tenants.length > 1) return multiTenantSource(tenants, source);
  return typeof source === 'function' ? source(tenants[0]) : source;
}

function msToNs(ms: number): bigint {
  return BigInt(Math.round(ms * NS_PER_MS));
}

/** Loki's `defaultQueryRangeStep`: one point per 250th of the range, at least 1 s. */
export function defaultStepNs(startNs: bigint, endNs: bigint): bigint {
  const seconds = (endNs - startNs) / NS_PER_S;
  return (seconds / 250n > 1n ? seconds / 250n : 1n) * NS_PER_S;
}

/**
 * Loki's `ComputeSummary`: totals over the querier's store and the ingesters (decompressed
 * plus head-chunk bytes and lines), rates per second of `execTime`.
 */
export function computeSummary(stats: QueryStats, execTimeSeconds: number, entries: number): void {
  const q = stats.querier.store.chunk;
  const i = stats.ingester.store.chunk;
  const s = stats.summary;
  s.totalBytesProcessed =
    q.decompressedBytes + q.headChunkBytes + i.decompressedBytes + i.headChunkBytes;
  s.totalLinesProcessed =
    q.decompressedLines + q.headChunkLines + i.decompressedLines + i.headChunkLines;
  s.totalStructuredMetadataBytesProcessed =
    q.decompressedStructuredMetadataBytes +
    q.headChunkStructuredMetadataBytes +
    i.decompressedStructuredMetadataBytes +
    i.headChunkStructuredMetadataBytes;
  s.totalPostFilterLines = q.postFilterLines + i.postFilterLines;
  s.execTime = execTimeSeconds;
  s.bytesProcessedPerSecond =
    execTimeSeconds > 0 ? Math.trunc(s.totalBytesProcessed / execTimeSeconds) : 0;
  s.linesProcessedPerSecond =
    execTimeSeconds > 0 ? Math.trunc(s.totalLinesProcessed / execTimeSeconds) : 0;
  s.totalEntriesReturned = entries;
  if (s.subqueries === 0) s.subqueries = 1;
}
