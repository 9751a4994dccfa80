/**
 * Vector aggregations (`sum by (a) (...)`, `topk(3, ...)`, `sort(...)`), as Loki's
 * `VectorAggEvaluator`: per step, samples are grouped by their `by`/`without` labels.
 * topk/bottomk keep the original series labels; sort/sort_desc order the whole vector.
 * approx_topk is evaluated as an exact topk.
 */
import type { Grouping, VectorAggregation } from '../../syntax/ast';
import { bestK } from './best-k';
import { compareLabels, groupLabels, MetricCache } from './labels';
import type { StepEvaluator } from './step-evaluator';
import type { Metric, StepVector } from './types';

interface Group {
  metric: Metric;
  value: number;
  mean: number;
  count: number;
  /** Indexes into the step vector (topk/bottomk/sort). */
  members: number[];
}

export class VectorAggregationEvaluator implements StepEvaluator {
  private readonly groupMetrics: MetricCache;

  constructor(
    private readonly expr: VectorAggregation,
    private readonly inner: StepEvaluator,
  ) {
    this.groupMetrics = groupCache(expr.grouping);
  }

  load(): Promise<void> {
    return this.inner.load();
  }

  step(k: number): StepVector {
    const vec = this.inner.step(k);
    const { op } = this.expr;
    if (op === 'sort' || op === 'sort_desc') return sortVector(vec, op === 'sort_desc');
    const groups = new Map<string, Group>();
    const order: Group[] = [];
    for (let i = 0; i < vec.metrics.length; i++) {
      const gm = this.groupMetrics.get(vec.metrics[i]);
      let g = groups.get(gm.key);
      const v = vec.values[i];
      if (g === undefined) {
        g = { metric: gm, value: v, mean: v, count: 1, members: [i] };
        if (op === 'stddev' || op === 'stdvar') g.value = 0;
        groups.set(gm.key, g);
        order.push(g);
        continue;
      }
      switch (op) {
        case 'sum':
          g.value += v;
          break;
        case 'avg':
          g.count++;
          // An infinite mean stays as is unless the other infinity arrives (then NaN), so
          // the result does not depend on the order of samples (Loki HEAD #23785).
          if (g.mean === Infinity || g.mean === -Infinity) {
            if (Number.isFinite(v) || v === g.mean) break;
          }
          g.mean += (v - g.mean) / g.count;
          break;
        case 'max':
          if (g.value < v || Number.isNaN(g.value)) g.value = v;
          break;
        case 'min':
          if (g.value > v || Number.isNaN(g.value)) g.value = v;
          break;
        case 'count':
          g.count++;
          break;
        case 'stddev':
        case 'stdvar': {
          g.count++;
          const delta = v - g.mean;
          g.mean += delta / g.count;
          g.value += delta * (v - g.mean);
          break;
        }
        case 'topk':
        case 'bottomk':
        case 'approx_topk':
          g.members.push(i);
          break;
      }
    }
    if (op === 'topk' || op === 'approx_topk' || op === 'bottomk') {
      return selectK(vec, order, this.expr.param ?? 1, op === 'bottomk');
    }
    const metrics: Metric[] = [];
    const values: number[] = [];
    for (const g of order) {
      metrics.push(g.metric);
      values.push(finalValue(op, g));
    }
    return { metrics, values };
  }
}

function finalValue(op: VectorAggregation['op'], g: Group): number {
  switch (op) {
    case 'avg':
      return g.mean;
    case 'count':
      return g.count;
    case 'stddev':
      return Math.sqrt(g.value / g.count);
    case 'stdvar':
      return g.value / g.count;
    default:
      return g.value;
  }
}

/** No grouping (or `by ()`) puts everything in one group with no labels. */
function groupCache(grouping: Grouping | undefined): MetricCache {
  if (grouping === undefined) return new MetricCache(() => []);
  const names = new Set(grouping.labels);
  return new MetricCache((labels) => groupLabels(labels, names, grouping.without));
}

/**
 * topk/bottomk per group: the k best samples, NaN losing to any number. Ties are broken by
 * labels (Loki's heap leaves them to map order), so results are deterministic. Output per
 * group from best to worst.
 */
function selectK(vec: StepVector, groups: Group[], k: number, bottom: boolean): StepVector {
  const rank = (a: number, b: number): number => {
    const x = vec.values[a];
    const y = vec.values[b];
    const xn = Number.isNaN(x);
    const yn = Number.isNaN(y);
    if (xn !== yn) return xn ? 1 : -1;
    if (!xn && x !== y) return (bottom ? x < y : x > y) ? -1 : 1;
    return compareLabels(vec.metrics[a].labels, vec.metrics[b].labels);
  };
  const metrics: Metric[] = [];
  const values: number[] = [];
  for (const g of groups) {
    for (const i of bestK(g.members, k, rank)) {
      metrics.push(vec.metrics[i]);
      values.push(vec.values[i]);
    }
  }
  return { metrics, values };
}

/** sort (ascending) / sort_desc: NaN last in both; ties by labels. */
function sortVector(vec: StepVector, desc: boolean): StepVector {
  const idx = vec.metrics.map((_, i) => i);
  idx.sort((a, b) => {
    const x = vec.values[a];
    const y = vec.values[b];
    const xn = Number.isNaN(x);
    const yn = Number.isNaN(y);
    if (xn || yn) {
      if (xn && yn) return compareLabels(vec.metrics[a].labels, vec.metrics[b].labels);
      return xn ? 1 : -1;
    }
    if (x !== y) return desc ? (x > y ? -1 : 1) : x < y ? -1 : 1;
    return compareLabels(vec.metrics[a].labels, vec.metrics[b].labels);
  });
  return { metrics: idx.map((i) => vec.metrics[i]), values: idx.map((i) => vec.values[i]) };
}
