/**
 * Loki's `MultiStageExpr.reorderStages` (`pkg/logql/syntax/ast.go`): line filters are hoisted
 * to the front of their segment, so they run on the raw bytes before parsers build strings.
 * A segment ends at a label filter, a `line_format` or an `| unpack` (the latter two rewrite
 * the line; label filters may read labels a parser set). Filters do move across
 * `| decolorize`, as in Loki.
 */
import type { LineFilter, PipelineStage } from '../../syntax/ast';

export function reorderStages(stages: readonly PipelineStage[]): PipelineStage[] {
  const result: PipelineStage[] = [];
  let filters: LineFilter[] = [];
  let rest: PipelineStage[] = [];
  const flush = (): void => {
    result.push(...filters, ...rest);
    filters = [];
    rest = [];
  };
  for (const stage of stages) {
    switch (stage.kind) {
      case 'LineFilter':
        filters.push(stage);
        break;
      case 'LabelFilterStage':
        flush();
        result.push(stage);
        break;
      case 'LineFormat':
      case 'UnpackParser':
        rest.push(stage);
        flush();
        break;
      default:
        rest.push(stage);
    }
  }
  flush();
  return result;
}
