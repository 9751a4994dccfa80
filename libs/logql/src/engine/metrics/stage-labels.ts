/**
 * The labels a pipeline's stages read, as Loki's `Stage.RequiredLabelNames()` reports them for
 * parser hints: the names in label filters, the fields a `line_format` / `label_format`
 * template reads, and the sources of `label_format` renames. Parsers, line filters,
 * `drop`/`keep` and `decolorize` read none.
 */
import type { LabelFilter, PipelineStage } from '../../syntax/ast';

export function stageLabels(stages: readonly PipelineStage[]): string[] {
  const names: string[] = [];
  for (const stage of stages) {
    switch (stage.kind) {
      case 'LabelFilterStage':
        names.push(...labelFilterNames(stage.filter));
        break;
      case 'LineFormat':
        names.push(...templateFields(stage.template));
        break;
      case 'LabelFormat':
        for (const item of stage.items) {
          if (item.rename) names.push(item.value);
          else names.push(...templateFields(item.value));
        }
        break;
      default:
        break;
    }
  }
  return names;
}

export function labelFilterNames(f: LabelFilter): string[] {
  switch (f.kind) {
    case 'StringLabelFilter':
      return [f.matcher.name];
    case 'BinaryLabelFilter':
      return [...labelFilterNames(f.left), ...labelFilterNames(f.right)];
    default:
      return [f.name];
  }
}

const ACTION = /\{\{([\s\S]*?)\}\}/g;
const FIELD_CHAIN = /\.([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Every identifier of a field chain (`.a.b` gives `a` and `b`) in the template's actions, as
 * Loki's `listNodeFields`. This may name more than Loki (a `.x` inside a string literal or
 * after a variable), which only makes a parser extract more, never less.
 */
export function templateFields(template: string): string[] {
  const out: string[] = [];
  for (const action of template.matchAll(ACTION)) {
    for (const field of action[1].matchAll(FIELD_CHAIN)) out.push(field[1]);
  }
  return out;
}
