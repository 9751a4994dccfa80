/**
 * An expression as Loki 3.4's `syntax.ParseExpr(q).String()` prints it: what Loki's rules API
 * lists as a rule's `query`. Terser than `printExpr` and not always parseable back: every
 * binary operation in parentheses (`(sum by (app)(rate({app="a"}[5m])) > 2)`), aggregation
 * arguments joined by `,` without a space, `by (a,b)` glued to the parenthesis, label filter
 * conjunctions as `( a , b )`, `vector(1.000000)`, `offset` as a Go duration (`1h0m0s`), byte
 * sizes as go-humanize prints them (`10 kB`). Loki's parser folds literal arithmetic
 * (`1 + 2` → `3`); this printer does the same for operations on two numbers.
 */
import {
  goDurationString,
  goFormatFloat,
  humanizeBytes,
  modelDurationString,
  strconvQuote,
} from '@logsvc/gocompat';
import type { Grouping, LabelFilter, LogRange, LogSelectorExpr, MetricExpr, Expr } from './ast';
import { printMatcher, printStage, printStreamSelector } from './printer';
import { lokiStageText } from './stage-text';
import { applyScalar } from './validate';

export function lokiExprString(expr: Expr): string {
  return expr.kind === 'LogSelectorExpr' ? logSelector(expr) : metric(expr);
}

function logSelector(e: LogSelectorExpr): string {
  const selector = printStreamSelector(e.selector);
  if (e.stages.length === 0) return selector;
  const stages = e.stages.map((s) =>
    s.kind === 'LabelFilterStage' ? `| ${labelFilter(s.filter)}` : lokiStageText(s),
  );
  return `${selector} ${stages.join(' ')}`;
}

function labelFilter(f: LabelFilter): string {
  switch (f.kind) {
    case 'StringLabelFilter':
      return printMatcher(f.matcher);
    case 'NumberLabelFilter':
      return `${f.name}${f.op}${goFormatFloat(f.value)}`;
    case 'DurationLabelFilter':
      return `${f.name}${f.op}${goDurationString(BigInt(f.valueNs))}`;
    case 'BytesLabelFilter':
      return `${f.name}${f.op}${humanizeBytes(f.value)}`;
    case 'IpLabelFilter':
      return printStage({ kind: 'LabelFilterStage', pos: f.pos, filter: f }).slice(2);
    case 'BinaryLabelFilter':
      return `( ${labelFilter(f.left)} ${f.op === 'and' ? ',' : 'or'} ${labelFilter(f.right)} )`;
  }
}

function logRange(r: LogRange): string {
  let out = logSelector(r.log);
  if (r.unwrap !== undefined) {
    const u = r.unwrap;
    out += u.conversion === '' ? ` | unwrap ${u.label}` : ` | unwrap ${u.conversion}(${u.label})`;
    for (const f of u.postFilters) out += ` | ${labelFilter(f)}`;
  }
  out += `[${modelDurationString(r.rangeNs / 1e6)}]`;
  if (r.offsetNs !== 0) out += ` offset ${goDurationString(BigInt(r.offsetNs))}`;
  return out;
}

function grouping(g: Grouping): string {
  return `${g.without ? ' without ' : ' by '}(${g.labels.join(',')})`;
}

/** A literal as Go's `fmt.Sprint(float64)` (`%v`: shortest form, exponent for large ones). */
function goFloatV(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const abs = Math.abs(v);
  if (abs !== 0 && (abs >= 1e21 || abs < 1e-4)) {
    // Go: `1e+21`, `1e-05` (two-digit exponent at least).
    const [m, e] = v.toExponential().split('e');
    const exp = Number(e);
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${m}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return String(v);
}

/** Loki folds an operation on two literals into one literal (`1 + 2` → `3`). */
function literalValue(e: MetricExpr): number | undefined {
  if (e.kind === 'NumberLiteral') return e.value;
  if (e.kind !== 'BinaryExpr') return undefined;
  const l = literalValue(e.lhs);
  const r = literalValue(e.rhs);
  if (l === undefined || r === undefined) return undefined;
  // Arithmetic only: a comparison of two literals is printed as written.
  return ARITHMETIC.has(e.op) ? applyScalar(e.op, l, r) : undefined;
}

const ARITHMETIC: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '^']);

function metric(e: MetricExpr): string {
  switch (e.kind) {
    case 'NumberLiteral':
      return goFloatV(e.value);
    case 'VectorExpr':
      return `vector(${e.value.toFixed(6)})`;
    case 'RangeAggregation': {
      const param = e.param !== undefined ? `${goFormatFloat(e.param)},` : '';
      const g = e.grouping !== undefined ? grouping(e.grouping) : '';
      return `${e.op}(${param}${logRange(e.range)})${g}`;
    }
    case 'VectorAggregation': {
      const g = e.grouping;
      const shown = g !== undefined && (g.without || g.labels.length > 0) ? grouping(g) : '';
      const withK = e.op === 'topk' || e.op === 'bottomk' || e.op === 'approx_topk';
      const param = withK || (e.param ?? 0) !== 0 ? `${e.param ?? 0},` : '';
      return `${e.op}${shown}(${param}${metric(e.expr)})`;
    }
    case 'LabelReplaceExpr':
      return `label_replace(${metric(e.expr)},${[e.dst, e.replacement, e.src, e.regex]
        .map(strconvQuote)
        .join(',')})`;
    case 'BinaryExpr': {
      const folded = literalValue(e);
      if (folded !== undefined) return goFloatV(folded);
      let op: string = e.op;
      if (e.returnBool) op += ' bool';
      const m = e.matching;
      if (m !== undefined) {
        let group =
          m.card === 'many-to-one' ? 'group_left' : m.card === 'one-to-many' ? 'group_right' : '';
        if (m.include.length > 0) group = `${group} (${m.include.join(',')})`;
        op = `${op} ${m.on ? 'on' : 'ignoring'} (${m.labels.join(',')}) ${group}`;
      }
      return `(${metric(e.lhs)} ${op} ${metric(e.rhs)})`;
    }
  }
}
