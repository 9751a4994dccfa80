/** Step evaluation of a sub-expression the query frontend already has the result of. */
import type { StepGrid } from './context';
import { metricOf } from './labels';
import type { StepEvaluator } from './step-evaluator';
import { EMPTY_VECTOR, type MatrixSeries, type StepVector, type VectorSample } from './types';

/** A downstream result: a matrix over the query's steps, or the vector of an instant query. */
export type DownstreamAnswer =
  | { readonly type: 'matrix'; readonly series: readonly MatrixSeries[] }
  | { readonly type: 'vector'; readonly samples: readonly VectorSample[] };

/** Replays a downstream result step by step: at step k, each series' point at that step. */
export class AnsweredEvaluator implements StepEvaluator {
  private readonly steps: StepVector[];

  constructor(answer: DownstreamAnswer, grid: StepGrid) {
    this.steps = grid.timestampsMs.map(() => ({ metrics: [], values: [] }));
    if (answer.type === 'vector') {
      const only = this.steps[0];
      for (const s of answer.samples) {
        only.metrics.push(metricOf(s.labels));
        only.values.push(s.value);
      }
      return;
    }
    const stepOf = new Map<number, number>();
    grid.timestampsMs.forEach((ts, k) => stepOf.set(ts, k));
    for (const series of answer.series) {
      const metric = metricOf(series.labels);
      for (const [ts, value] of series.points) {
        const k = stepOf.get(ts);
        if (k === undefined) continue;
        this.steps[k].metrics.push(metric);
        this.steps[k].values.push(value);
      }
    }
  }

  async load(): Promise<void> {}

  step(k: number): StepVector {
    return this.steps[k] ?? EMPTY_VECTOR;
  }
}
