/** One pipeline stage AST node (other than line filters) to its runtime stage. */
import { DecolorizeStage } from '../../log/decolorize';
import { DropLabelsStage, KeepLabelsStage, type LabelSelector } from '../../log/drop-keep';
import { JsonExpressionParserStage } from '../../log/json-expr';
import { JsonParserStage } from '../../log/json-parser';
import { LabelFilterStage } from '../../log/label-filter';
import { LabelFormatStage } from '../../log/label-format';
import { LineFormatStage } from '../../log/line-format';
import { LogfmtExpressionParserStage, LogfmtParserStage } from '../../log/logfmt';
import { PatternParserStage } from '../../log/pattern-parser';
import type { Stage } from '../../log/pipeline';
import { RegexpParserStage } from '../../log/regexp-parser';
import { UnpackParserStage } from '../../log/unpack';
import type { LabelSelectorItem, LineFilter, PipelineStage } from '../../syntax/ast';
import { compileLabelFilter } from './label-filters';

export function compileStage(node: Exclude<PipelineStage, LineFilter>): Stage {
  switch (node.kind) {
    case 'JsonParser':
      return node.params.length === 0
        ? new JsonParserStage()
        : new JsonExpressionParserStage(
            node.params.map((p) => ({ identifier: p.name, expression: p.expression })),
          );
    case 'LogfmtParser': {
      const options = { strict: node.strict, keepEmpty: node.keepEmpty };
      return node.params.length === 0
        ? new LogfmtParserStage(options)
        : new LogfmtExpressionParserStage(
            node.params.map((p) => ({ identifier: p.name, expression: p.expression })),
            options,
          );
    }
    case 'RegexpParser':
      return new RegexpParserStage(node.regex);
    case 'PatternParser':
      return new PatternParserStage(node.pattern);
    case 'UnpackParser':
      return new UnpackParserStage();
    case 'LabelFilterStage':
      return new LabelFilterStage(compileLabelFilter(node.filter));
    case 'LineFormat':
      return new LineFormatStage(node.template);
    case 'LabelFormat':
      return new LabelFormatStage(
        node.items.map((i) => ({ name: i.name, value: i.value, rename: i.rename })),
      );
    case 'DropLabels':
      return new DropLabelsStage(node.items.map(labelSelector));
    case 'KeepLabels':
      return new KeepLabelsStage(node.items.map(labelSelector));
    case 'Decolorize':
      return new DecolorizeStage();
  }
}

function labelSelector(item: LabelSelectorItem): LabelSelector {
  return item.matcher === undefined
    ? { name: item.name }
    : { name: item.name, type: item.matcher.type, value: item.matcher.value };
}
