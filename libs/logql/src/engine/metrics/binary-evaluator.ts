/**
 * Binary operations between a vector and a scalar literal, and between two vectors with
 * Prometheus-style matching (`on`/`ignoring`, `group_left`/`group_right`), as Loki's
 * `LiteralStepEvaluator`, `vectorBinop`, `vectorAnd/Or/Unless` and `resultMetric`.
 */
import type { Labels } from '@logsvc/api';
import type { BinaryExpr, BinaryOp, VectorMatching } from '../../syntax/ast';
import { applyOp, isComparison } from './binary-ops';
import { VectorMatchingError } from './errors';
import { getLabelValue, groupLabels, labelsKeyOf, MetricCache, setLabel } from './labels';
import type { StepEvaluator } from './step-evaluator';
import { EMPTY_VECTOR, type Metric, type StepVector } from './types';

/** `v op 2` or `2 op v`: every sample against the literal; comparisons keep the vector's value. */
export class LiteralBinaryEvaluator implements StepEvaluator {
  constructor(
    private readonly op: BinaryOp,
    private readonly returnBool: boolean,
    private readonly vector: StepEvaluator,
    private readonly literal: number,
    /** Whether the literal is the left operand. */
    private readonly literalOnLeft: boolean,
  ) {}

  load(): Promise<void> {
    return this.vector.load();
  }

  step(k: number): StepVector {
    const vec = this.vector.step(k);
    const { op, literal, literalOnLeft } = this;
    const filter = isComparison(op) && !this.returnBool;
    const metrics: Metric[] = [];
    const values: number[] = [];
    for (let i = 0; i < vec.metrics.length; i++) {
      const v = vec.values[i];
      const r = literalOnLeft ? applyOp(op, literal, v) : applyOp(op, v, literal);
      if (filter) {
        if (r === 1) {
          metrics.push(vec.metrics[i]);
          values.push(v);
        }
        continue;
      }
      metrics.push(vec.metrics[i]);
      values.push(r);
    }
    return { metrics, values };
  }
}

const DEFAULT_MATCHING: VectorMatching = {
  kind: 'VectorMatching',
  pos: { start: 0, end: 0 },
  on: false,
  labels: [],
  card: 'one-to-one',
  include: [],
};

/** Both operands are vectors. */
export class VectorBinaryEvaluator implements StepEvaluator {
  private readonly matching: VectorMatching;
  private readonly signatures: MetricCache;
  private readonly results = new Map<string, Metric>();

  constructor(
    private readonly expr: BinaryExpr,
    private readonly lhs: StepEvaluator,
    private readonly rhs: StepEvaluator,
  ) {
    this.matching = expr.matching ?? DEFAULT_MATCHING;
    const names = new Set(this.matching.labels);
    const on = this.matching.on;
    this.signatures = new MetricCache((labels) => groupLabels(labels, names, !on));
  }

  async load(): Promise<void> {
    await Promise.all([this.lhs.load(), this.rhs.load()]);
  }

  step(k: number): StepVector {
    const lhs = this.lhs.step(k);
    const rhs = this.rhs.step(k);
    switch (this.expr.op) {
      case 'and':
        return this.and(lhs, rhs);
      case 'or':
        return this.or(lhs, rhs);
      case 'unless':
        return this.unless(lhs, rhs);
      default:
        return this.arithmetic(lhs, rhs);
    }
  }

  private sig(m: Metric): string {
    return this.signatures.get(m).key;
  }

  private sigSet(vec: StepVector): Set<string> {
    const set = new Set<string>();
    for (const m of vec.metrics) set.add(this.sig(m));
    return set;
  }

  private and(lhs: StepVector, rhs: StepVector): StepVector {
    if (lhs.metrics.length === 0 || rhs.metrics.length === 0) return EMPTY_VECTOR;
    const right = this.sigSet(rhs);
    return filterVector(lhs, (m) => right.has(this.sig(m)));
  }

  private unless(lhs: StepVector, rhs: StepVector): StepVector {
    const right = this.sigSet(rhs);
    return filterVector(lhs, (m) => !right.has(this.sig(m)));
  }

  private or(lhs: StepVector, rhs: StepVector): StepVector {
    if (lhs.metrics.length === 0) return rhs;
    const left = this.sigSet(lhs);
    const extra = filterVector(rhs, (m) => !left.has(this.sig(m)));
    return {
      metrics: lhs.metrics.concat(extra.metrics),
      values: lhs.values.concat(extra.values),
    };
  }

  private arithmetic(lhs: StepVector, rhs: StepVector): StepVector {
    const { op, returnBool } = this.expr;
    const matching = this.matching;
    const oneToMany = matching.card === 'one-to-many';
    // For group_right the "one" side is the left: swap so that `many` is always iterated.
    const many = oneToMany ? rhs : lhs;
    const one = oneToMany ? lhs : rhs;
    const oneBySig = new Map<string, number>();
    for (let i = 0; i < one.metrics.length; i++) {
      const sig = this.sig(one.metrics[i]);
      if (oneBySig.has(sig)) {
        throw new VectorMatchingError(
          `found duplicate series on the ${oneToMany ? 'left' : 'right'} hand-side` +
            ';many-to-many matching not allowed: matching labels must be unique on one side',
        );
      }
      oneBySig.set(sig, i);
    }
    const filter = isComparison(op) && !returnBool;
    const matched = new Map<string, Set<string> | null>();
    const metrics: Metric[] = [];
    const values: number[] = [];
    for (let i = 0; i < many.metrics.length; i++) {
      const sig = this.sig(many.metrics[i]);
      const j = oneBySig.get(sig);
      if (j === undefined) continue;
      const metric = this.resultMetric(many.metrics[i], one.metrics[j]);
      if (matching.card === 'one-to-one') {
        if (matched.has(sig)) {
          throw new VectorMatchingError(
            'multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)',
          );
        }
        matched.set(sig, null);
      } else {
        let inserted = matched.get(sig);
        if (inserted == null) {
          inserted = new Set();
          matched.set(sig, inserted);
        } else if (inserted.has(metric.key)) {
          throw new VectorMatchingError(
            'multiple matches for labels: grouping labels must ensure unique matches',
          );
        }
        inserted.add(metric.key);
      }
      const l = oneToMany ? one.values[j] : many.values[i];
      const r = oneToMany ? many.values[i] : one.values[j];
      const res = applyOp(op, l, r);
      if (filter) {
        if (res !== 1) continue;
        metrics.push(metric);
        values.push(l);
        continue;
      }
      metrics.push(metric);
      values.push(res);
    }
    return { metrics, values };
  }

  /** Loki's `resultMetric`: labels of the "many" side, reduced or extended per the matching. */
  private resultMetric(many: Metric, one: Metric): Metric {
    const matching = this.matching;
    if (matching.card === 'one-to-one' && matching.labels.length === 0 && !matching.on) {
      return many;
    }
    const cacheKey = many.key + '\u0000' + one.key;
    let out = this.results.get(cacheKey);
    if (out !== undefined) return out;
    let labels: Labels = many.labels;
    if (matching.card === 'one-to-one') {
      labels = groupLabels(labels, new Set(matching.labels), !matching.on);
    }
    for (const name of matching.include) {
      labels = setLabel(labels, name, getLabelValue(one.labels, name));
    }
    out = { labels, key: labelsKeyOf(labels) };
    this.results.set(cacheKey, out);
    return out;
  }
}

function filterVector(vec: StepVector, keep: (m: Metric) => boolean): StepVector {
  const metrics: Metric[] = [];
  const values: number[] = [];
  for (let i = 0; i < vec.metrics.length; i++) {
    if (!keep(vec.metrics[i])) continue;
    metrics.push(vec.metrics[i]);
    values.push(vec.values[i]);
  }
  return { metrics, values };
}
