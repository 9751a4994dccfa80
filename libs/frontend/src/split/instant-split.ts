/**
 * `split_instant_metric_queries_by_interval`: Loki's range mapper (pkg/logql/rangemapper.go)
 * for the downstream parts of an instant query, in the cases whose answer pieces recombine
 * exactly per series: `count_over_time`, `bytes_over_time`, `sum_over_time` (summed),
 * `rate` and `bytes_rate` (as `count_over_time` / `sum_over_time` with `unwrap` /
 * `bytes_over_time` pieces summed, divided by the range in seconds),
 * `max_over_time`, `min_over_time` (max / min), alone or under `sum` (for the summed ones),
 * `max` or `min` (for the same op) with any grouping, and with any grouping on the range
 * aggregation itself. As Loki's mapper, a part whose pipeline extracts every label of a line
 * (`| json` or `| logfmt` without parameters) is cut only when an aggregation bounds its series
 * (a vector aggregation over it or a grouping on the range aggregation): alone, each piece could
 * return a series per distinct extracted label set. The pieces' series are joined by their
 * labels, so every cut part answers exactly as the whole one.
 *
 * A `[range]` longer than the interval is cut into `ceil(range / interval)` pieces, newest
 * first: piece k covers `[interval] offset (offset + k * interval)`, the last one the rest.
 */
import { type DownstreamAnswer, log, type MetricExpr, type RangeAggregation } from '@logsvc/logql';

export type PieceCombine = 'sum' | 'max' | 'min';

export interface InstantSplit {
  /** The part's expression over each piece of its range. */
  readonly pieces: readonly MetricExpr[];
  readonly combine: PieceCombine;
  /** `rate`, `bytes_rate`: the joined values are divided by this (the range in seconds). */
  readonly divideBy?: number;
}

const RANGE_COMBINE: Partial<Record<RangeAggregation['op'], PieceCombine>> = {
  count_over_time: 'sum',
  bytes_over_time: 'sum',
  sum_over_time: 'sum',
  max_over_time: 'max',
  min_over_time: 'min',
  rate: 'sum',
  bytes_rate: 'sum',
};

/** The op each piece of a rate runs. */
function pieceOp(range: RangeAggregation): RangeAggregation['op'] {
  if (range.op === 'rate')
    return range.range.unwrap === undefined ? 'count_over_time' : 'sum_over_time';
  if (range.op === 'bytes_rate') return 'bytes_over_time';
  return range.op;
}

/** `| json` or `| logfmt` without parameters: every key of a line becomes a label. */
function extractsAllLabels(range: RangeAggregation): boolean {
  return range.range.log.stages.some(
    (s) => (s.kind === 'JsonParser' || s.kind === 'LogfmtParser') && s.params.length === 0,
  );
}

function splittableRange(expr: MetricExpr, aggregated: boolean): RangeAggregation | undefined {
  if (expr.kind !== 'RangeAggregation' || RANGE_COMBINE[expr.op] === undefined) return undefined;
  if (!aggregated && expr.grouping === undefined && extractsAllLabels(expr)) return undefined;
  return expr;
}

function pieceRanges(rangeNs: number, intervalNs: number, offsetNs: number) {
  const count = Math.ceil(rangeNs / intervalNs);
  return Array.from({ length: count }, (_, k) => ({
    rangeNs: Math.min(intervalNs, rangeNs - k * intervalNs),
    offsetNs: offsetNs + k * intervalNs,
  }));
}

/** How a downstream part of an instant query is cut by the interval; undefined: it is not. */
export function splitInstantPart(expr: MetricExpr, intervalNs: number): InstantSplit | undefined {
  if (intervalNs <= 0) return undefined;
  const aggregated = expr.kind === 'VectorAggregation';
  const range = splittableRange(aggregated ? expr.expr : expr, aggregated);
  if (range === undefined || range.range.rangeNs <= intervalNs) return undefined;
  const combine = RANGE_COMBINE[range.op]!;
  if (expr.kind === 'VectorAggregation' && expr.op !== combine) return undefined;
  const pieces = pieceRanges(range.range.rangeNs, intervalNs, range.range.offsetNs).map((p) => {
    const piece: RangeAggregation = {
      ...range,
      op: pieceOp(range),
      range: { ...range.range, ...p },
    };
    return expr.kind === 'VectorAggregation' ? { ...expr, expr: piece } : piece;
  });
  const rate = range.op === 'rate' || range.op === 'bytes_rate';
  return { pieces, combine, ...(rate ? { divideBy: range.range.rangeNs / 1e9 } : {}) };
}

/** The pieces' instant answers joined per series (by its labels). */
export function combinePieces(
  answers: readonly DownstreamAnswer[],
  combine: PieceCombine,
  divideBy = 1,
): DownstreamAnswer {
  const out = new Map<string, { labels: Parameters<typeof log.labelsKey>[0]; value: number }>();
  let timestampMs = 0;
  for (const answer of answers) {
    if (answer.type !== 'vector') continue;
    for (const s of answer.samples) {
      timestampMs = s.timestampMs;
      const key = log.labelsKey(s.labels);
      const seen = out.get(key);
      if (seen === undefined) out.set(key, { labels: s.labels, value: s.value });
      else if (combine === 'sum') seen.value += s.value;
      else if (combine === 'max') seen.value = Math.max(seen.value, s.value);
      else seen.value = Math.min(seen.value, s.value);
    }
  }
  return {
    type: 'vector',
    samples: [...out.values()].map((s) => ({
      labels: s.labels,
      timestampMs,
      value: divideBy === 1 ? s.value : s.value / divideBy,
    })),
  };
}
