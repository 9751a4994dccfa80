/** Line filter AST nodes to runtime line filters, and the literal a source may prefilter on. */
import { REGEX_META_BUT_BAR, newLineFilter, type LineFilter } from '../../log/line-filter';
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

/**
 * Literals of which every line kept by this filter contains one, when it implies no single
 * literal: `|= "a" or "b"`, or `|~ "a|b"` made of literals only (which the line filter runs
 * as a search for each). Undefined when an alternative is empty (every line matches).
 */
export function requiredAnyLiterals(node: LineFilterNode): string[] | undefined {
  if (node.values.some((v) => v.type !== 'text')) return undefined;
  let literals: string[];
  if (node.op === '|=' && node.values.length > 1) literals = node.values.map((v) => v.value);
  else if (node.op === '|~' && node.values.length === 1) {
    const pattern = node.values[0].value;
    if (!pattern.includes('|') || REGEX_META_BUT_BAR.test(pattern)) return undefined;
    literals = pattern.split('|');
  } else return undefined;
  return literals.includes('') ? undefined : literals;
}
