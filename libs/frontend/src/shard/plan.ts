/**
 * Which parts of a metric query the frontend sends downstream and how: a shardable node runs
 * once per shard of the streams and the shards' answers are combined; a node that cannot be
 * sharded runs downstream whole; the operators above the downstream nodes (topk, binary
 * operations, label_replace, ...) are evaluated by the frontend over their answers.
 *
 * Every rule here is exact: a node is sharded only when combining the shards' answers gives
 * the unsharded answer (up to floating-point rounding of sums), as Loki's shard mapper intends.
 */
import {
  constantValue,
  printExpr,
  type MetricExpr,
  type RangeAggregation,
  type RangeAggregationOp,
  type VectorAggregation,
} from '@logsvc/logql';

/** How the shards' answers of one downstream query are combined, series by series, step by step. */
export type Combine = 'sum' | 'max' | 'min' | 'concat';

export interface DownstreamPart {
  /** The LogQL the querier runs. */
  readonly query: string;
  readonly combine: Combine;
}

/**
 * A node of the query answered downstream. `parts` run once per shard when `sharded`, else
 * once; `avg` divides the first part's answer by the second's (a sharded `avg by`).
 */
export interface DownstreamNode {
  readonly node: MetricExpr;
  readonly parts: readonly DownstreamPart[];
  readonly sharded: boolean;
  readonly join: 'single' | 'avg';
}

const SUM_FAMILY: ReadonlySet<RangeAggregationOp> = new Set([
  'count_over_time',
  'rate',
  'bytes_over_time',
  'bytes_rate',
  'sum_over_time',
]);

/** How per-shard values of one series of this range aggregation combine, if they can. */
function rangeCombine(op: RangeAggregationOp): Combine | undefined {
  if (SUM_FAMILY.has(op)) return 'sum';
  if (op === 'max_over_time') return 'max';
  if (op === 'min_over_time') return 'min';
  return undefined;
}

/**
 * Whether each output series of the range aggregation comes from exactly one stream: no
 * grouping, and no stage that removes or rewrites labels (parsers never replace stream
 * labels: a clashing name gets `_extracted`). Then no series spans two shards.
 */
function streamPreserving(r: RangeAggregation): boolean {
  if (r.grouping !== undefined) return false;
  return r.range.log.stages.every(
    (s) => s.kind !== 'DropLabels' && s.kind !== 'KeepLabels' && s.kind !== 'LabelFormat',
  );
}

/** The downstream parts answering `node` shard by shard, when it can be sharded. */
function shardParts(
  node: MetricExpr,
  seriesKept: boolean,
): Pick<DownstreamNode, 'parts' | 'join'> | undefined {
  if (node.kind === 'RangeAggregation') {
    if (node.op === 'absent_over_time') return undefined;
    // Per-stream series: only where their number reaches the answer unreduced, so that no
    // shard meets `max_query_series` where the whole query would not.
    if (streamPreserving(node) && seriesKept) return single(node, 'concat');
    const combine = rangeCombine(node.op);
    return combine !== undefined && !streamPreserving(node) ? single(node, combine) : undefined;
  }
  if (node.kind !== 'VectorAggregation' || node.expr.kind !== 'RangeAggregation') return undefined;
  const inner = node.expr;
  if (inner.op === 'absent_over_time') return undefined;
  const preserving = streamPreserving(inner);
  const innerCombine = rangeCombine(inner.op);
  switch (node.op) {
    case 'sum':
      return preserving || innerCombine === 'sum' ? single(node, 'sum') : undefined;
    case 'max':
    case 'min':
      return preserving || innerCombine === node.op ? single(node, node.op) : undefined;
    case 'count':
      return preserving ? single(node, 'sum') : undefined;
    case 'avg':
      return preserving ? averageParts(node) : undefined;
    default:
      return undefined;
  }
}

function single(node: MetricExpr, combine: Combine): Pick<DownstreamNode, 'parts' | 'join'> {
  return { parts: [{ query: printExpr(node), combine }], join: 'single' };
}

/** `avg by (g) (x)` as `sum by (g) (x)` over `count by (g) (x)`, both summed over shards. */
function averageParts(node: VectorAggregation): Pick<DownstreamNode, 'parts' | 'join'> {
  const sum: VectorAggregation = { ...node, op: 'sum' };
  const count: VectorAggregation = { ...node, op: 'count' };
  return {
    parts: [
      { query: printExpr(sum), combine: 'sum' },
      { query: printExpr(count), combine: 'sum' },
    ],
    join: 'avg',
  };
}

function children(node: MetricExpr): { expr: MetricExpr; seriesKept: boolean }[] {
  switch (node.kind) {
    case 'VectorAggregation':
      return [{ expr: node.expr, seriesKept: node.op === 'sort' || node.op === 'sort_desc' }];
    case 'LabelReplaceExpr':
      return [{ expr: node.expr, seriesKept: true }];
    case 'BinaryExpr': {
      const withScalar =
        constantValue(node.lhs) !== undefined || constantValue(node.rhs) !== undefined;
      return [
        { expr: node.lhs, seriesKept: withScalar },
        { expr: node.rhs, seriesKept: withScalar },
      ];
    }
    default:
      return [];
  }
}

function readsData(node: MetricExpr): boolean {
  if (node.kind === 'RangeAggregation') return true;
  return children(node).some((c) => readsData(c.expr));
}

function planNode(node: MetricExpr, seriesKept: boolean): DownstreamNode[] {
  if (constantValue(node) !== undefined || !readsData(node)) return [];
  const parts = shardParts(node, seriesKept);
  if (parts !== undefined) return [{ node, sharded: true, ...parts }];
  const below = children(node).map((c) => planNode(c.expr, c.seriesKept));
  if (below.some((nodes) => nodes.some((n) => n.sharded))) return below.flat();
  // Nothing below can be sharded: the whole subtree runs downstream as one query.
  return [{ node, sharded: false, ...single(node, 'concat') }];
}

/**
 * The downstream nodes of a metric query; the frontend evaluates the rest. `shard: false`
 * (sharding off) answers the whole query with one unsharded downstream query.
 */
export function planMetricQuery(expr: MetricExpr, shard: boolean): DownstreamNode[] {
  if (constantValue(expr) !== undefined || !readsData(expr)) return [];
  if (!shard) return [{ node: expr, sharded: false, ...single(expr, 'concat') }];
  return planNode(expr, true);
}
