/**
 * Evaluates a metric AST at one time (instant) or at every step of `[start, end]` (range), as
 * Loki's `query.evalSample` and `JoinSampleVector`, with a given sample-extractor builder.
 */
import type { MetricExpr } from '../../syntax/ast';
import { constantValue } from '../../syntax/validate';
import type { LogSource } from '../source';
import type { QueryStats } from '../stats';
import { type MemoryBudget, unlimitedBudget } from '../memory-budget';
import { TimeSlice } from '../time-slice';
import { AnsweredEvaluator, type DownstreamAnswer } from './answered-evaluator';
import { type EvalContext, StepGrid, throwIfAborted, type SampleExtractorBuilder } from './context';
import type { StepEvaluator } from './step-evaluator';
import { SeriesLimitError } from './errors';
import { buildEvaluator, hasSort } from './evaluator';
import { compareLabels } from './labels';
import { optimizeSampleExpr } from './optimize';
import {
  DEFAULT_MAX_QUERY_SERIES,
  type MatrixSeries,
  type MetricQueryParams,
  type MetricResult,
  type VectorSample,
} from './types';

export async function evaluateWithExtractor(
  query: MetricExpr,
  params: MetricQueryParams,
  source: LogSource,
  stats: QueryStats,
  buildExtractor: SampleExtractorBuilder,
): Promise<MetricResult> {
  const expr = optimizeSampleExpr(query);
  const instant = params.kind === 'instant';
  const grid = instant
    ? new StepGrid(params.endNs, params.endNs, 0n)
    : new StepGrid(params.startNs, params.endNs, params.stepNs);
  const constant = constantValue(expr);
  if (constant !== undefined && instant) {
    return { type: 'scalar', timestampMs: grid.timestampsMs[0], value: constant };
  }

  const ctx: EvalContext = {
    tenant: params.tenant,
    grid,
    source,
    stats,
    signal: params.signal,
    budget: params.budget ?? unlimitedBudget(),
    buildExtractor,
  };
  return collectResult(expr, buildEvaluator(expr, ctx), grid, params, ctx.budget);
}

/**
 * Evaluates a metric AST whose data-reading sub-expressions were answered elsewhere (the query
 * frontend's downstream sub-queries): `answers` maps each such node (by identity) to its
 * result over the same steps; the operators above them (topk, binary operations, ...) are
 * evaluated here. Every range aggregation of `query` must have an answer, above it or at it.
 */
export async function evaluateOverDownstream(
  query: MetricExpr,
  params: MetricQueryParams,
  answers: ReadonlyMap<MetricExpr, DownstreamAnswer>,
  stats: QueryStats,
): Promise<MetricResult> {
  const instant = params.kind === 'instant';
  const grid = instant
    ? new StepGrid(params.endNs, params.endNs, 0n)
    : new StepGrid(params.startNs, params.endNs, params.stepNs);
  const constant = constantValue(query);
  if (constant !== undefined && instant) {
    return { type: 'scalar', timestampMs: grid.timestampsMs[0], value: constant };
  }
  const ctx: EvalContext = {
    tenant: params.tenant,
    grid,
    source: NO_SOURCE,
    stats,
    signal: params.signal,
    budget: params.budget ?? unlimitedBudget(),
    buildExtractor: () => {
      throw new Error('a range aggregation without a downstream answer');
    },
    downstream: (node) => {
      const answer = answers.get(node);
      return answer === undefined ? undefined : new AnsweredEvaluator(answer, grid);
    },
  };
  return collectResult(query, buildEvaluator(query, ctx), grid, params, ctx.budget);
}

/** A source for evaluations that must not read any data. */
const NO_SOURCE: LogSource = {
  select: () => Promise.reject(new Error('the frontend evaluation reads no data')),
};

/** Bytes counted for a series of the answer (its labels are shared with the evaluators). */
const SERIES_ENTRY_BYTES = 96;
/** Bytes counted for one `[ts, value]` point of the answer. */
const POINT_BYTES = 48;

async function collectResult(
  expr: MetricExpr,
  root: StepEvaluator,
  grid: StepGrid,
  params: MetricQueryParams,
  budget: MemoryBudget,
): Promise<MetricResult> {
  const instant = params.kind === 'instant';
  const maxSeries = params.maxSeries ?? DEFAULT_MAX_QUERY_SERIES;
  await root.load();
  throwIfAborted(params.signal);

  if (instant) {
    const vec = root.step(0);
    if (vec.metrics.length > maxSeries) throw new SeriesLimitError(maxSeries);
    const samples: VectorSample[] = vec.metrics.map((m, i) => ({
      labels: m.labels,
      timestampMs: grid.timestampsMs[0],
      value: vec.values[i],
    }));
    if (!hasSort(expr)) samples.sort((a, b) => compareLabels(a.labels, b.labels));
    return { type: 'vector', samples };
  }

  const index = new Map<string, MatrixSeries>();
  const slice = new TimeSlice();
  for (let k = 0; k < grid.count; k++) {
    if (slice.expired()) {
      await slice.pause();
      throwIfAborted(params.signal);
    }
    const vec = root.step(k);
    if (k === 0 && vec.metrics.length > maxSeries) throw new SeriesLimitError(maxSeries);
    const ts = grid.timestampsMs[k];
    for (let i = 0; i < vec.metrics.length; i++) {
      const m = vec.metrics[i];
      let series = index.get(m.key);
      if (series === undefined) {
        budget.charge(SERIES_ENTRY_BYTES);
        series = { labels: m.labels, points: [] };
        index.set(m.key, series);
      }
      series.points.push([ts, vec.values[i]]);
    }
    budget.charge(POINT_BYTES * vec.metrics.length);
    if (index.size > maxSeries) throw new SeriesLimitError(maxSeries);
  }
  const series = [...index.values()].sort((a, b) => compareLabels(a.labels, b.labels));
  return { type: 'matrix', series };
}
