/**
 * Loki's `optimizeSampleExpr` (`pkg/logql/optimize.go`), run on every metric query before it
 * is evaluated: a `line_format` that no line filter or parser follows cannot change a sample
 * (only the line changes, and nothing reads it any more), so it is removed. What users notice
 * is that its template errors no longer fail the query, and that a label filter or template
 * naming `__error__` inside it no longer asks for parser errors to be kept.
 *
 * `bytes_over_time` and `bytes_rate` keep their `line_format`s: they measure the line. Label
 * filters, `label_format` (even one reading `__line__`), `drop`, `keep` and `decolorize` after
 * a `line_format` do not keep it, as in Loki.
 */
import type { LogRange, MetricExpr, PipelineStage, RangeAggregation } from '../../syntax/ast';

export function optimizeSampleExpr(expr: MetricExpr): MetricExpr {
  switch (expr.kind) {
    case 'RangeAggregation':
      return optimizeRange(expr);
    case 'VectorAggregation':
    case 'LabelReplaceExpr': {
      const inner = optimizeSampleExpr(expr.expr);
      return inner === expr.expr ? expr : { ...expr, expr: inner };
    }
    case 'BinaryExpr': {
      const lhs = optimizeSampleExpr(expr.lhs);
      const rhs = optimizeSampleExpr(expr.rhs);
      return lhs === expr.lhs && rhs === expr.rhs ? expr : { ...expr, lhs, rhs };
    }
    default:
      return expr;
  }
}

function optimizeRange(expr: RangeAggregation): RangeAggregation {
  if (expr.op === 'bytes_over_time' || expr.op === 'bytes_rate') return expr;
  const stages = withoutIdleLineFormats(expr.range.log.stages);
  if (stages.length === expr.range.log.stages.length) return expr;
  const range: LogRange = { ...expr.range, log: { ...expr.range.log, stages } };
  return { ...expr, range };
}

/** The stages without each `line_format` after which no line filter or parser comes. */
function withoutIdleLineFormats(stages: readonly PipelineStage[]): readonly PipelineStage[] {
  let lastReader = -1;
  stages.forEach((stage, i) => {
    if (readsLine(stage)) lastReader = i;
  });
  const kept = stages.filter((stage, i) => stage.kind !== 'LineFormat' || i < lastReader);
  return kept.length === stages.length ? stages : kept;
}

/** Stages that read the line a `line_format` writes, so it must stay before them. */
function readsLine(stage: PipelineStage): boolean {
  switch (stage.kind) {
    case 'LineFilter':
    case 'JsonParser':
    case 'LogfmtParser':
    case 'RegexpParser':
    case 'PatternParser':
    case 'UnpackParser':
      return true;
    default:
      return false;
  }
}
