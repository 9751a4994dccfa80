/**
 * Prints an AST as canonical single-line LogQL, close to Loki's `Expr.String()`:
 * `sum by (app) (rate({app="api"} |= "error" | json [5m]))`. Parentheses are added only
 * where precedence needs them, so `parse(print(ast))` gives back the same tree.
 */
import type {
  BinaryExpr,
  Expr,
  ExtractionParam,
  Grouping,
  LabelFilter,
  LabelMatcher,
  LabelSelectorItem,
  LineFilterValue,
  LogRange,
  LogSelectorExpr,
  MetricExpr,
  PipelineStage,
  StreamSelector,
  Unwrap,
  VectorMatching,
} from './ast';
import { binaryPrecedence } from './precedence';
import { strconvQuote as quoteString } from '@logsvc/gocompat';
import { formatBytes, formatDuration } from './units';

export function printExpr(expr: Expr): string {
  return expr.kind === 'LogSelectorExpr' ? printLogSelector(expr) : printMetric(expr);
}

export function printMatcher(m: LabelMatcher): string {
  return `${m.name}${m.type}${quoteString(m.value)}`;
}

export function printStreamSelector(s: StreamSelector): string {
  return `{${s.matchers.map(printMatcher).join(', ')}}`;
}

export function printLogSelector(e: LogSelectorExpr): string {
  let out = printStreamSelector(e.selector);
  for (const stage of e.stages) out += ' ' + printStage(stage);
  return out;
}

function printLineFilterValue(v: LineFilterValue): string {
  return v.type === 'ip' ? `ip(${quoteString(v.value)})` : quoteString(v.value);
}

function printParams(params: readonly ExtractionParam[]): string {
  return params
    .map((p) => (p.expression === p.name ? p.name : `${p.name}=${quoteString(p.expression)}`))
    .join(', ');
}

function printItems(items: readonly LabelSelectorItem[]): string {
  return items.map((i) => (i.matcher !== undefined ? printMatcher(i.matcher) : i.name)).join(', ');
}

export function printStage(stage: PipelineStage): string {
  switch (stage.kind) {
    case 'LineFilter':
      return `${stage.op} ${stage.values.map(printLineFilterValue).join(' or ')}`;
    case 'JsonParser':
      return stage.params.length === 0 ? '| json' : `| json ${printParams(stage.params)}`;
    case 'LogfmtParser': {
      let out = '| logfmt';
      if (stage.strict) out += ' --strict';
      if (stage.keepEmpty) out += ' --keep-empty';
      if (stage.params.length > 0) out += ' ' + printParams(stage.params);
      return out;
    }
    case 'RegexpParser':
      return `| regexp ${quoteString(stage.regex)}`;
    case 'PatternParser':
      return `| pattern ${quoteString(stage.pattern)}`;
    case 'UnpackParser':
      return '| unpack';
    case 'LabelFilterStage':
      return `| ${printLabelFilter(stage.filter)}`;
    case 'LineFormat':
      return `| line_format ${quoteString(stage.template)}`;
    case 'LabelFormat':
      return `| label_format ${stage.items
        .map((i) => `${i.name}=${i.rename ? i.value : quoteString(i.value)}`)
        .join(', ')}`;
    case 'Decolorize':
      return '| decolorize';
    case 'DropLabels':
      return `| drop ${printItems(stage.items)}`;
    case 'KeepLabels':
      return `| keep ${printItems(stage.items)}`;
  }
}

/**
 * Label filters: `and` as ` and `, except when its right operand is itself a binary filter,
 * which is printed with `,` (a comma takes everything to its right, as in Loki's grammar).
 */
export function printLabelFilter(f: LabelFilter): string {
  switch (f.kind) {
    case 'StringLabelFilter':
      return printMatcher(f.matcher);
    case 'NumberLabelFilter':
      return `${f.name}${f.op}${printNumber(f.value)}`;
    case 'DurationLabelFilter':
      return `${f.name}${f.op}${formatDuration(f.valueNs)}`;
    case 'BytesLabelFilter':
      return `${f.name}${f.op}${formatBytes(f.value)}`;
    case 'IpLabelFilter':
      return `${f.name}${f.op}ip(${quoteString(f.pattern)})`;
    case 'BinaryLabelFilter': {
      if (f.op === 'and') {
        if (f.right.kind === 'BinaryLabelFilter') {
          const left = isBinary(f.left)
            ? `(${printLabelFilter(f.left)})`
            : printLabelFilter(f.left);
          return `${left}, ${printLabelFilter(f.right)}`;
        }
        const left =
          isBinary(f.left) && (f.left.op === 'or' || usesComma(f.left))
            ? `(${printLabelFilter(f.left)})`
            : printLabelFilter(f.left);
        return `${left} and ${printLabelFilter(f.right)}`;
      }
      const left = usesComma(f.left) ? `(${printLabelFilter(f.left)})` : printLabelFilter(f.left);
      const right =
        isBinary(f.right) && (f.right.op === 'or' || usesComma(f.right))
          ? `(${printLabelFilter(f.right)})`
          : printLabelFilter(f.right);
      return `${left} or ${right}`;
    }
  }
}

function isBinary(f: LabelFilter): f is Extract<LabelFilter, { kind: 'BinaryLabelFilter' }> {
  return f.kind === 'BinaryLabelFilter';
}

/** Whether the printed form of `f` is the comma form `x, rest`. */
function usesComma(f: LabelFilter): boolean {
  return isBinary(f) && f.op === 'and' && isBinary(f.right);
}

export function printNumber(v: number): string {
  // `-0` would lex as a duration (Go's ParseDuration accepts it); `-0.0` reads back as -0.
  if (Object.is(v, -0)) return '-0.0';
  return String(v);
}

function printUnwrap(u: Unwrap): string {
  let out = u.conversion === '' ? `| unwrap ${u.label}` : `| unwrap ${u.conversion}(${u.label})`;
  for (const f of u.postFilters) out += ` | ${printLabelFilter(f)}`;
  return out;
}

export function printLogRange(r: LogRange): string {
  let out = printLogSelector(r.log);
  if (r.unwrap !== undefined) out += ' ' + printUnwrap(r.unwrap);
  if (r.log.stages.length > 0 || r.unwrap !== undefined) out += ' ';
  out += `[${formatDuration(r.rangeNs)}]`;
  if (r.offsetNs !== 0) out += ` offset ${formatDuration(r.offsetNs)}`;
  return out;
}

export function printGrouping(g: Grouping): string {
  return `${g.without ? 'without' : 'by'} (${g.labels.join(', ')})`;
}

/** `rhsInParens`: a bare `group_left` before `(` would read the parenthesis as its labels. */
export function printMatching(m: VectorMatching, rhsInParens: boolean): string {
  let out = `${m.on ? 'on' : 'ignoring'} (${m.labels.join(', ')})`;
  if (m.card !== 'one-to-one') {
    out += m.card === 'many-to-one' ? ' group_left' : ' group_right';
    if (m.include.length > 0 || rhsInParens) out += ` (${m.include.join(', ')})`;
  }
  return out;
}

export function printMetric(e: MetricExpr): string {
  switch (e.kind) {
    case 'NumberLiteral':
      return printNumber(e.value);
    case 'VectorExpr':
      return `vector(${printNumber(e.value)})`;
    case 'RangeAggregation': {
      const param = e.param !== undefined ? `${printNumber(e.param)}, ` : '';
      const grouping = e.grouping !== undefined ? ' ' + printGrouping(e.grouping) : '';
      return `${e.op}(${param}${printLogRange(e.range)})${grouping}`;
    }
    case 'VectorAggregation': {
      const grouping = e.grouping !== undefined ? ` ${printGrouping(e.grouping)} ` : '';
      const param = e.param !== undefined ? `${printNumber(e.param)}, ` : '';
      return `${e.op}${grouping}(${param}${printMetric(e.expr)})`;
    }
    case 'LabelReplaceExpr':
      return `label_replace(${printMetric(e.expr)}, ${[e.dst, e.replacement, e.src, e.regex]
        .map(quoteString)
        .join(', ')})`;
    case 'BinaryExpr':
      return printBinary(e);
  }
}

function printBinary(e: BinaryExpr): string {
  const prec = binaryPrecedence(e.op);
  const rightAssoc = e.op === '^';
  const lhs = printOperand(e.lhs, rightAssoc ? prec + 1 : prec);
  const rhs = printOperand(e.rhs, rightAssoc ? prec : prec + 1);
  let op = e.op as string;
  if (e.returnBool) op += ' bool';
  if (e.matching !== undefined) op += ' ' + printMatching(e.matching, rhs.startsWith('('));
  return `${lhs} ${op} ${rhs}`;
}

/** An operand, in parentheses when its own precedence is below `minPrec`. */
function printOperand(e: MetricExpr, minPrec: number): string {
  const s = printMetric(e);
  if (e.kind === 'BinaryExpr' && binaryPrecedence(e.op) < minPrec) return `(${s})`;
  // `-1 ^ 2` reads back as (-1)^2 in LogQL too; a negative literal needs no parentheses.
  return s;
}
