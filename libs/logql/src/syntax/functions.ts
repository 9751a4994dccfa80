/**
 * Signatures of LogQL's aggregation functions: what each accepts at parse time. The engine's
 * implementations live elsewhere (`engine/`); this table only drives parsing and validation
 * (`ast.go` `RangeAggregationExpr.validate`, `mustNewVectorAggregationExpr`).
 */
import type { RangeAggregationOp, VectorAggregationOp } from './ast';

export interface RangeFunctionSignature {
  readonly name: RangeAggregationOp;
  /** Whether `| unwrap` is required, forbidden or optional in the range. */
  readonly unwrap: 'required' | 'forbidden' | 'optional';
  /** Whether a `by`/`without` suffix is accepted. */
  readonly allowsGrouping: boolean;
  /** Whether a leading scalar parameter (φ of quantile_over_time) is required. */
  readonly param: 'none' | 'required';
}

export interface VectorFunctionSignature {
  readonly name: VectorAggregationOp;
  /** `k`: a positive integer first argument (topk, bottomk, approx_topk). */
  readonly param: 'none' | 'k';
  /** `'empty-only'`: sort/sort_desc accept `by ()` but no grouping labels. */
  readonly grouping: 'allowed' | 'forbidden' | 'empty-only';
}

function range(
  name: RangeAggregationOp,
  unwrap: RangeFunctionSignature['unwrap'],
  allowsGrouping: boolean,
  param: RangeFunctionSignature['param'] = 'none',
): RangeFunctionSignature {
  return { name, unwrap, allowsGrouping, param };
}

export const RANGE_FUNCTIONS: ReadonlyMap<RangeAggregationOp, RangeFunctionSignature> = new Map(
  [
    range('count_over_time', 'forbidden', false),
    range('rate', 'optional', false),
    range('rate_counter', 'required', false),
    range('bytes_over_time', 'forbidden', false),
    range('bytes_rate', 'forbidden', false),
    range('avg_over_time', 'required', true),
    range('sum_over_time', 'required', false),
    range('min_over_time', 'required', true),
    range('max_over_time', 'required', true),
    range('stddev_over_time', 'required', true),
    range('stdvar_over_time', 'required', true),
    range('quantile_over_time', 'required', true, 'required'),
    range('first_over_time', 'required', true),
    range('last_over_time', 'required', true),
    range('absent_over_time', 'optional', false),
  ].map((s) => [s.name, s]),
);

function vector(
  name: VectorAggregationOp,
  param: VectorFunctionSignature['param'],
  grouping: VectorFunctionSignature['grouping'],
): VectorFunctionSignature {
  return { name, param, grouping };
}

export const VECTOR_FUNCTIONS: ReadonlyMap<VectorAggregationOp, VectorFunctionSignature> = new Map(
  [
    vector('sum', 'none', 'allowed'),
    vector('avg', 'none', 'allowed'),
    vector('min', 'none', 'allowed'),
    vector('max', 'none', 'allowed'),
    vector('stddev', 'none', 'allowed'),
    vector('stdvar', 'none', 'allowed'),
    vector('count', 'none', 'allowed'),
    vector('topk', 'k', 'allowed'),
    vector('bottomk', 'k', 'allowed'),
    vector('approx_topk', 'k', 'forbidden'),
    vector('sort', 'none', 'empty-only'),
    vector('sort_desc', 'none', 'empty-only'),
  ].map((s) => [s.name, s]),
);

export function isRangeAggregationOp(name: string): name is RangeAggregationOp {
  return RANGE_FUNCTIONS.has(name as RangeAggregationOp);
}

export function isVectorAggregationOp(name: string): name is VectorAggregationOp {
  return VECTOR_FUNCTIONS.has(name as VectorAggregationOp);
}
