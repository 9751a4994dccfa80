/**
 * A stage as Loki's `StageExpr.String()` prints it, for the `stage '<stage>' : <reason>` of a
 * stage that cannot be built. It differs from `printStage` (our canonical form) where Loki's
 * own printing is terser: lists joined by `,` without a space, and every extraction parameter
 * written out as `name="expression"`. Stages that print alike are delegated to `printStage`.
 */
import { strconvQuote } from '@logsvc/gocompat';
import type { ExtractionParam, PipelineStage } from './ast';
import { printStage } from './printer';

export function lokiStageText(stage: PipelineStage): string {
  switch (stage.kind) {
    case 'LabelFormat':
      return `| label_format ${stage.items
        .map((i) => `${i.name}=${i.rename ? i.value : strconvQuote(i.value)}`)
        .join(',')}`;
    case 'JsonParser':
      return stage.params.length === 0 ? printStage(stage) : `| json ${params(stage.params)}`;
    case 'LogfmtParser': {
      if (stage.params.length === 0) return printStage(stage);
      const flags = (stage.strict ? '--strict ' : '') + (stage.keepEmpty ? '--keep-empty ' : '');
      return `| logfmt ${flags}${params(stage.params)}`;
    }
    default:
      return printStage(stage);
  }
}

function params(list: readonly ExtractionParam[]): string {
  return list.map((p) => `${p.name}=${strconvQuote(p.expression)}`).join(',');
}
