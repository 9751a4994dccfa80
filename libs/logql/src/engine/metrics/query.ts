/** Entry point of metric queries. */
import type { MetricExpr } from '../../syntax/ast';
import type { LogSource } from '../source';
import type { QueryStats } from '../stats';
import { evaluateWithExtractor } from './evaluate';
import { buildSampleExtractor } from './extractor';
import type { MetricQueryParams, MetricResult } from './types';

/**
 * Evaluates a metric query: instant (one step at `endNs`) or range (`startNs`, `startNs +
 * stepNs`, ... up to `endNs`). Throws `MetricQueryError`s for user errors (pipeline errors,
 * series limit, vector matching) and `QueryCanceledError` when `signal` aborts.
 */
export function evaluateMetricQuery(
  expr: MetricExpr,
  params: MetricQueryParams,
  source: LogSource,
  stats: QueryStats,
): Promise<MetricResult> {
  return evaluateWithExtractor(expr, params, source, stats, buildSampleExtractor);
}
