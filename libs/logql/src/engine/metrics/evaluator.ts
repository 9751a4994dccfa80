/** Turns a metric AST into a tree of step evaluators. */
import type { MetricExpr, RangeAggregation, RangeAggregationOp } from '../../syntax/ast';
import { constantValue } from '../../syntax/validate';
import { LiteralBinaryEvaluator, VectorBinaryEvaluator } from './binary-evaluator';
import type { EvalContext } from './context';
import { EMPTY_METRIC } from './labels';
import { LabelReplaceEvaluator } from './label-replace';
import {
  AbsentOverTimeEvaluator,
  RangeAggregationEvaluator,
  type PushedGrouping,
} from './range-evaluator';
import type { StepEvaluator } from './step-evaluator';
import type { StepVector } from './types';
import { VectorAggregationEvaluator } from './vector-aggregation';

/** Range ops whose per-series results a `sum` may add up after extraction-time grouping. */
const SUMMABLE_RANGE_OPS: ReadonlySet<RangeAggregationOp> = new Set([
  'count_over_time',
  'rate',
  'bytes_over_time',
  'bytes_rate',
  'sum_over_time',
]);

/** `vector(s)`: one sample without labels at every step. */
class ConstantVectorEvaluator implements StepEvaluator {
  private readonly vec: StepVector;

  constructor(value: number) {
    this.vec = { metrics: [EMPTY_METRIC], values: [value] };
  }

  async load(): Promise<void> {}

  step(): StepVector {
    return this.vec;
  }
}

export function buildEvaluator(expr: MetricExpr, ctx: EvalContext): StepEvaluator {
  const answered = ctx.downstream?.(expr);
  if (answered !== undefined) return answered;
  switch (expr.kind) {
    case 'RangeAggregation':
      return rangeEvaluator(expr, ctx);
    case 'VectorAggregation': {
      const inner = expr.expr;
      if (
        ctx.downstream === undefined &&
        expr.op === 'sum' &&
        inner.kind === 'RangeAggregation' &&
        inner.grouping === undefined &&
        SUMMABLE_RANGE_OPS.has(inner.op)
      ) {
        // Loki reduces labels while extracting when a sum encloses these ops: far fewer series.
        const pushed: PushedGrouping = expr.grouping ?? { labels: [], without: false };
        const ev = new RangeAggregationEvaluator(inner, ctx, {
          labels: pushed.labels,
          without: pushed.without,
        });
        return new VectorAggregationEvaluator(expr, ev);
      }
      return new VectorAggregationEvaluator(expr, buildEvaluator(inner, ctx));
    }
    case 'BinaryExpr': {
      const constant = constantValue(expr);
      if (constant !== undefined) return new ConstantVectorEvaluator(constant);
      const l = constantValue(expr.lhs);
      const r = constantValue(expr.rhs);
      if (l !== undefined) {
        return new LiteralBinaryEvaluator(
          expr.op,
          expr.returnBool,
          buildEvaluator(expr.rhs, ctx),
          l,
          true,
        );
      }
      if (r !== undefined) {
        return new LiteralBinaryEvaluator(
          expr.op,
          expr.returnBool,
          buildEvaluator(expr.lhs, ctx),
          r,
          false,
        );
      }
      return new VectorBinaryEvaluator(
        expr,
        buildEvaluator(expr.lhs, ctx),
        buildEvaluator(expr.rhs, ctx),
      );
    }
    case 'LabelReplaceExpr':
      return new LabelReplaceEvaluator(expr, buildEvaluator(expr.expr, ctx));
    case 'VectorExpr':
      return new ConstantVectorEvaluator(expr.value);
    case 'NumberLiteral':
      return new ConstantVectorEvaluator(expr.value);
  }
}

function rangeEvaluator(expr: RangeAggregation, ctx: EvalContext): StepEvaluator {
  return expr.op === 'absent_over_time'
    ? new AbsentOverTimeEvaluator(expr, ctx)
    : new RangeAggregationEvaluator(expr, ctx);
}

/** Whether the result keeps the order sort/sort_desc gave it (Loki's `Sortable`). */
export function hasSort(expr: MetricExpr): boolean {
  switch (expr.kind) {
    case 'VectorAggregation':
      return expr.op === 'sort' || expr.op === 'sort_desc' || hasSort(expr.expr);
    case 'BinaryExpr':
      return hasSort(expr.lhs) || hasSort(expr.rhs);
    case 'LabelReplaceExpr':
      return hasSort(expr.expr);
    default:
      return false;
  }
}
