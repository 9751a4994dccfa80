/**
 * Multi-line printing in the layout of Loki's `syntax.Prettify` (`pkg/logql/syntax/prettier.go`),
 * which format_query returns: an expression whose one-line form is longer than 100 characters
 * is split, its children indented by two spaces per level; shorter ones stay on one line.
 *
 * - a log query puts each pipeline stage on its own line;
 * - `| unwrap` and its post filters go on new lines, the `[range]` stays at the end;
 * - aggregations and label_replace put their arguments on their own lines;
 * - a binary expression puts its operands and the operator on separate lines.
 *
 * Unlike Loki, operands that need parentheses keep them, so the output always parses back to
 * the same tree.
 */
import type { BinaryExpr, Expr, LogRange, LogSelectorExpr, MetricExpr, Unwrap } from './ast';
import { binaryPrecedence } from './precedence';
import {
  printExpr,
  printGrouping,
  printLabelFilter,
  printLogSelector,
  printMatching,
  printNumber,
  printStage,
  printStreamSelector,
} from './printer';
import { strconvQuote as quoteString } from '@logsvc/gocompat';
import { formatDuration } from './units';

/** Loki's `maxCharsPerLine`. */
export const MAX_CHARS_PER_LINE = 100;

export function prettyExpr(expr: Expr): string {
  return pretty(expr, 0);
}

function indent(level: number): string {
  return '  '.repeat(level);
}

function fits(expr: Expr): boolean {
  return printExpr(expr).length <= MAX_CHARS_PER_LINE;
}

function pretty(expr: Expr, level: number): string {
  if (fits(expr)) return indent(level) + printExpr(expr);
  switch (expr.kind) {
    case 'LogSelectorExpr':
      return prettyLog(expr, level);
    case 'RangeAggregation': {
      let out = `${indent(level)}${expr.op}(\n`;
      if (expr.param !== undefined) out += `${indent(level + 1)}${printNumber(expr.param)},\n`;
      out += `${prettyRange(expr.range, level + 1)}\n${indent(level)})`;
      if (expr.grouping !== undefined) out += ' ' + printGrouping(expr.grouping);
      return out;
    }
    case 'VectorAggregation': {
      let out = indent(level) + expr.op;
      if (expr.grouping !== undefined) out += ' ' + printGrouping(expr.grouping) + ' ';
      out += '(\n';
      if (expr.param !== undefined) out += `${indent(level + 1)}${printNumber(expr.param)},\n`;
      return `${out}${pretty(expr.expr, level + 1)}\n${indent(level)})`;
    }
    case 'LabelReplaceExpr': {
      const args = [expr.dst, expr.replacement, expr.src, expr.regex].map(
        (s) => indent(level + 1) + quoteString(s),
      );
      return `${indent(level)}label_replace(\n${[pretty(expr.expr, level + 1), ...args].join(',\n')}\n${indent(level)})`;
    }
    case 'BinaryExpr':
      return prettyBinary(expr, level);
    case 'NumberLiteral':
    case 'VectorExpr':
      return indent(level) + printExpr(expr);
  }
}

function prettyLog(e: LogSelectorExpr, level: number): string {
  if (printLogSelector(e).length <= MAX_CHARS_PER_LINE) return indent(level) + printLogSelector(e);
  const lines = [indent(level) + printStreamSelector(e.selector)];
  for (const stage of e.stages) lines.push(indent(level + 1) + printStage(stage));
  return lines.join('\n');
}

function prettyUnwrap(u: Unwrap, level: number): string {
  const head = u.conversion === '' ? u.label : `${u.conversion}(${u.label})`;
  let out = `${indent(level)}| unwrap ${head}`;
  for (const f of u.postFilters) out += `\n${indent(level)}| ${printLabelFilter(f)}`;
  return out;
}

function prettyRange(r: LogRange, level: number): string {
  let out = prettyLog(r.log, level);
  if (r.unwrap !== undefined) out += '\n' + prettyUnwrap(r.unwrap, level + 1);
  out += ` [${formatDuration(r.rangeNs)}]`;
  if (r.offsetNs !== 0) out += ` offset ${formatDuration(r.offsetNs)}`;
  return out;
}

function prettyBinary(e: BinaryExpr, level: number): string {
  const prec = binaryPrecedence(e.op);
  const rightAssoc = e.op === '^';
  const lhs = prettyOperand(e.lhs, rightAssoc ? prec + 1 : prec, level + 1);
  const rhs = prettyOperand(e.rhs, rightAssoc ? prec : prec + 1, level + 1);
  let op = e.op as string;
  if (e.returnBool) op += ' bool';
  if (e.matching !== undefined)
    op += ' ' + printMatching(e.matching, rhs.trimStart().startsWith('('));
  return `${lhs}\n${indent(level)}${op}\n${rhs}`;
}

function prettyOperand(e: MetricExpr, minPrec: number, level: number): string {
  if (e.kind === 'BinaryExpr' && binaryPrecedence(e.op) < minPrec) {
    if (fits(e)) return `${indent(level)}(${printExpr(e)})`;
    return `${indent(level)}(\n${pretty(e, level + 1)}\n${indent(level)})`;
  }
  return pretty(e, level);
}
