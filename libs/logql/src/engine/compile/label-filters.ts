/** Label filter AST nodes to runtime label filters. */
import {
  BinaryLabelFilter,
  BytesLabelFilter,
  DurationLabelFilter,
  IpLabelFilter,
  NumericLabelFilter,
  StringLabelFilter,
  type LabelFilter,
} from '../../log/label-filter';
import type { LabelFilter as LabelFilterNode } from '../../syntax/ast';

/** Throws the runtime's StageBuildError for a bad regex or ip pattern. */
export function compileLabelFilter(node: LabelFilterNode): LabelFilter {
  switch (node.kind) {
    case 'StringLabelFilter':
      return new StringLabelFilter(node.matcher.name, node.matcher.type, node.matcher.value);
    case 'NumberLabelFilter':
      return new NumericLabelFilter(node.name, node.op, node.value);
    case 'DurationLabelFilter':
      return new DurationLabelFilter(node.name, node.op, node.valueNs);
    case 'BytesLabelFilter':
      return new BytesLabelFilter(node.name, node.op, node.value);
    case 'IpLabelFilter':
      return new IpLabelFilter(node.name, node.op, node.pattern);
    case 'BinaryLabelFilter':
      return new BinaryLabelFilter(
        node.op === 'and',
        compileLabelFilter(node.left),
        compileLabelFilter(node.right),
      );
  }
}
