/**
 * Loki's parser hint `PreserveError` (`pkg/logql/log/parser_hints.go`): a metric query that asks
 * for `__error__` (in a label filter, a `keep`, a template, or the grouping) keeps samples with
 * parser errors instead of failing, provided the extraction has a `by` grouping (also `by ()`
 * or a bare enclosing `sum`). No grouping or a `without` grouping gives no hints, so no
 * preservation.
 */
import type { LabelFilter, RangeAggregation } from '../../syntax/ast';
import { ERROR_LABEL } from './labels';

export function preservesParserErrors(
  expr: RangeAggregation,
  grouping: { readonly labels: readonly string[]; readonly without: boolean } | undefined,
): boolean {
  if (grouping === undefined || grouping.without) return false;
  return grouping.labels.includes(ERROR_LABEL) || requiresErrorLabel(expr);
}

function requiresErrorLabel(expr: RangeAggregation): boolean {
  for (const stage of expr.range.log.stages) {
    switch (stage.kind) {
      case 'LabelFilterStage':
        if (filterNames(stage.filter).includes(ERROR_LABEL)) return true;
        break;
      case 'KeepLabels':
        if (stage.items.some((i) => i.name === ERROR_LABEL)) return true;
        break;
      case 'LineFormat':
        if (stage.template.includes(ERROR_LABEL)) return true;
        break;
      case 'LabelFormat':
        if (stage.items.some((i) => i.value.includes(ERROR_LABEL))) return true;
        break;
      default:
        break;
    }
  }
  const post = expr.range.unwrap?.postFilters ?? [];
  return post.some((f) => filterNames(f).includes(ERROR_LABEL));
}

function filterNames(f: LabelFilter): string[] {
  switch (f.kind) {
    case 'StringLabelFilter':
      return [f.matcher.name];
    case 'BinaryLabelFilter':
      return [...filterNames(f.left), ...filterNames(f.right)];
    default:
      return [f.name];
  }
}
