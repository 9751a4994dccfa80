/** Line filter AST nodes to runtime line filters, and the literal a source may prefilter on. */
import { newLineFilter, type LineFilter } from '../../log/line-filter';
import { extractLiteralPrefilter } from '../../regex';
import type { LineFilter as LineFilterNode } from '../../syntax/ast';

export function compileLineFilter(node: LineFilterNode): LineFilter {
  return newLineFilter(
    node.op,
    node.values.map((v) => ({ type: v.type, value: v.value })),
  );
}

/**
 * A literal that every line kept by this filter contains, if the filter implies one:
 * `|= "x"`, or `|~ "re"` whose regex requires a literal. `or` chains, negations, patterns and
 * `ip()` imply none.
 */
export function requiredLiteral(node: LineFilterNode): string | undefined {
  if (node.values.length !== 1) return undefined;
  const v = node.values[0];
  if (v.type !== 'text' || v.value === '') return undefined;
  if (node.op === '|=') return v.value;
  if (node.op === '|~') return extractLiteralPrefilter(v.value);
  return undefined;
}
