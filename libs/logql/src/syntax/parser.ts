/**
 * The LogQL parser: recursive descent for the structure, precedence climbing for binary
 * operators (`or` < `and`/`unless` < comparisons < `+ -` < `* / %` < `^`, right-assoc),
 * following Loki's goyacc grammar (`pkg/logql/syntax/expr.y`). Semantic checks that Loki makes
 * while building nodes are made as nodes are built; the checks Loki makes after parsing
 * (`validateExpr`) are in `validate.ts`.
 */
import type {
  BinaryExpr,
  BinaryOp,
  Expr,
  Grouping,
  LabelReplaceExpr,
  LogRange,
  LogSelectorExpr,
  MetricExpr,
  NumberLiteral,
  Pos,
  RangeAggregation,
  Unwrap,
  VectorAggregation,
  VectorExpr,
  VectorMatching,
} from './ast';
import { LogsvcError } from '@logsvc/errors';
import { ParseError } from './errors';
import { isRangeAggregationOp, isVectorAggregationOp } from './functions';
import { tokenize } from './lexer';
import {
  atUnwrap,
  parseLogSelectorExpr,
  parseStages,
  parseStreamSelector,
  parseUnwrap,
} from './parse-pipeline';
import { binaryPrecedence, isBinaryOp } from './precedence';
import { TokenStream } from './token-stream';
import {
  validateExpr,
  checkBinaryOperands,
  checkRangeAggregation,
  checkVectorAggregation,
} from './validate';

/** Loki rejects queries of this many bytes or more. */
export const MAX_INPUT_SIZE = 131072;

/** Parses and validates a whole query. Throws ParseError and nothing else. */
export function parseExpr(input: string): Expr {
  const expr = parseWithoutValidation(input);
  validateExpr(expr);
  return expr;
}

/** Parses without the post-parse checks (Loki's `parseExprWithoutValidation`). */
export function parseWithoutValidation(input: string): Expr {
  const size = Buffer.byteLength(input, 'utf8');
  if (size >= MAX_INPUT_SIZE) {
    throw ParseError.semantic(`input size too long (${size} > ${MAX_INPUT_SIZE})`);
  }
  const ts = new TokenStream(input, tokenize(input));
  const parser = new Parser(ts);
  const expr = parser.parseBinary(0);
  if (ts.peek().type !== 'EOF') throw ts.unexpected();
  parser.throwDeferred();
  return expr;
}

/** An aggregation's number parameter: its text (for errors) and value. */
interface AggregationParam {
  readonly text: string;
  readonly value: number;
}

/** An aggregation's parameter and grouping, as fields present only when written. */
function writtenOptions(param: AggregationParam | undefined, grouping: Grouping | undefined) {
  return {
    ...(param !== undefined ? { param: param.value } : {}),
    ...(grouping !== undefined ? { grouping } : {}),
  };
}

export class Parser {
  /**
   * Errors of aggregations found while parsing. Loki 3.4 keeps these in the node and reports
   * them once the whole query parsed (a syntax error anywhere comes first), the outermost and
   * leftmost first.
   */
  private readonly deferred: { pos: Pos; error: ParseError }[] = [];

  constructor(private readonly ts: TokenStream) {}

  /** Throws the first deferred aggregation error, if any (call after a complete parse). */
  throwDeferred(): void {
    if (this.deferred.length === 0) return;
    const first = this.deferred.reduce((a, b) =>
      b.pos.start < a.pos.start || (b.pos.start === a.pos.start && b.pos.end > a.pos.end) ? b : a,
    );
    throw first.error;
  }

  private defer(pos: Pos, check: () => void): void {
    try {
      check();
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
      this.deferred.push({ pos, error: err });
    }
  }

  parseBinary(minPrec: number): Expr {
    const { ts } = this;
    ts.enter();
    let lhs = this.parseOperand();
    for (;;) {
      const op = this.binaryOpAhead();
      if (op === undefined || binaryPrecedence(op) < minPrec) {
        ts.leave();
        return lhs;
      }
      ts.next();
      const { returnBool, matching } = this.parseModifiers();
      const prec = binaryPrecedence(op);
      const rhs = this.parseBinary(op === '^' ? prec : prec + 1);
      checkBinaryOperands(op, lhs, rhs);
      const node: BinaryExpr = {
        kind: 'BinaryExpr',
        pos: { start: lhs.pos.start, end: rhs.pos.end },
        op,
        lhs: lhs as MetricExpr,
        rhs: rhs as MetricExpr,
        returnBool,
        ...(matching !== undefined ? { matching } : {}),
      };
      lhs = node;
    }
  }

  private binaryOpAhead(): BinaryOp | undefined {
    const t = this.ts.peek();
    if (t.type === 'KW' && (t.value === 'or' || t.value === 'and' || t.value === 'unless')) {
      return t.value;
    }
    if (t.type === 'OP' && isBinaryOp(t.value)) return t.value;
    return undefined;
  }

  /** `[bool] [on|ignoring (labels) [group_left|group_right [(labels)]]]`. */
  private parseModifiers(): { returnBool: boolean; matching?: VectorMatching } {
    const { ts } = this;
    let returnBool = false;
    if (ts.isKw('bool')) {
      ts.next();
      returnBool = true;
    }
    if (!ts.isKw('on') && !ts.isKw('ignoring')) return { returnBool };
    const kw = ts.next();
    const labels = this.parseLabelList();
    let card: VectorMatching['card'] = 'one-to-one';
    let include: string[] = [];
    if (ts.isKw('group_left') || ts.isKw('group_right')) {
      card = ts.next().value === 'group_left' ? 'many-to-one' : 'one-to-many';
      if (ts.isOp('(')) include = this.parseLabelList();
    }
    const matching: VectorMatching = {
      kind: 'VectorMatching',
      pos: { start: kw.start, end: ts.lastEnd() },
      on: kw.value === 'on',
      labels,
      card,
      include,
    };
    return { returnBool, matching };
  }

  /** `(a, b)` or `()`. */
  private parseLabelList(): string[] {
    const { ts } = this;
    ts.expectOp('(');
    const labels: string[] = [];
    if (ts.peek().type !== 'IDENT' && !ts.isOp(')')) throw ts.unexpected('IDENTIFIER or )');
    if (!ts.isOp(')')) {
      for (;;) {
        labels.push(ts.expectIdent().value);
        if (!ts.isOp(',')) break;
        ts.next();
      }
    }
    ts.expectOp(')', labels.length > 0 ? ', or )' : ')');
    return labels;
  }

  private parseOperand(): Expr {
    const { ts } = this;
    const t = ts.peek();
    if (t.type === 'OP') {
      if (t.value === '{') {
        const log = parseLogSelectorExpr(ts);
        // `| unwrap` outside a range aggregation: Loki's grammar takes the `|` as the start of a
        // pipeline stage and fails on `unwrap`.
        if (atUnwrap(ts)) throw ts.unexpected(undefined, ts.peek(1));
        return log;
      }
      if (t.value === '(') {
        ts.next();
        const inner = this.parseBinary(0);
        ts.expectOpAfterExpr(')');
        return inner;
      }
      if (t.value === '+' || t.value === '-') {
        // A sign starts a number literal (Loki has no other unary operator): goyacc takes the
        // sign and fails at what follows, `-rate(` at `rate`.
        if (ts.peek(1).type !== 'NUMBER') throw ts.unexpected('NUMBER', ts.peek(1));
        return this.parseNumber();
      }
    }
    if (t.type === 'NUMBER') return this.parseNumber();
    if (t.type === 'FUNC') {
      if (isRangeAggregationOp(t.value)) return this.parseRangeAggregation();
      if (isVectorAggregationOp(t.value)) return this.parseVectorAggregation();
      if (t.value === 'vector') return this.parseVector();
      if (t.value === 'label_replace') return this.parseLabelReplace();
    }
    throw ts.unexpected();
  }

  private parseNumber(): NumberLiteral {
    const { ts } = this;
    const first = ts.next();
    let sign = 1;
    let num = first;
    if (first.type === 'OP') {
      sign = first.value === '-' ? -1 : 1;
      num = ts.next();
    }
    return {
      kind: 'NumberLiteral',
      pos: { start: first.start, end: num.end },
      value: sign * num.num,
    };
  }

  /** A metric expression argument; a log query there is a syntax error at what follows. */
  private parseMetricArg(): MetricExpr {
    const expr = this.parseBinary(0);
    if (expr.kind === 'LogSelectorExpr') throw this.ts.unexpected();
    return expr;
  }

  /** The `5,` of `topk(5, …)` or `quantile_over_time(0.9, …)`, when written. */
  private parseOptionalParam(): AggregationParam | undefined {
    const { ts } = this;
    if (ts.peek().type !== 'NUMBER' || !ts.isOp(',', 1)) return undefined;
    const p = ts.next();
    ts.next();
    return { text: p.value, value: p.num };
  }

  private parseRangeAggregation(): RangeAggregation {
    const { ts } = this;
    const fn = ts.next();
    ts.expectOp('(');
    const param = this.parseOptionalParam();
    if (param === undefined && ts.peek().type === 'NUMBER') {
      // `rate(5 {...}`: a number here can only be the parameter, so Loki wants the comma.
      throw ts.unexpected(',', ts.peek(1));
    }
    if (!ts.isOp('{') && !ts.isOp('(')) {
      throw ts.unexpected(param === undefined ? 'NUMBER or { or (' : '{ or (');
    }
    const range = this.parseLogRange();
    ts.expectOp(')');
    const grouping = this.parseOptionalGrouping();
    const node: RangeAggregation = {
      kind: 'RangeAggregation',
      pos: { start: fn.start, end: ts.lastEnd() },
      op: fn.value as RangeAggregation['op'],
      range,
      ...writtenOptions(param, grouping),
    };
    this.defer(node.pos, () => checkRangeAggregation(node, param?.text));
    return node;
  }

  /**
   * The log range of a range aggregation, in any of Loki's placements:
   * `{..} | stages | unwrap x [5m] offset 1h`, `{..} [5m] offset 1h | stages | unwrap x`,
   * `({..} | stages) [5m]`, `({..} [5m])`.
   */
  private parseLogRange(): LogRange {
    const { ts } = this;
    ts.enter();
    const range = this.parseLogRangeInner();
    ts.leave();
    return range;
  }

  private parseLogRangeInner(): LogRange {
    const { ts } = this;
    const start = ts.peek().start;
    if (ts.isOp('(')) {
      ts.next();
      const inner = this.parseRangeBody();
      ts.expectOp(')');
      if (inner.rangeNs !== undefined) {
        return this.finishRange(start, inner.log, inner.unwrap, inner.rangeNs, inner.offsetNs);
      }
      const range = ts.expectType('RANGE');
      const offsetNs = this.parseOptionalOffset();
      return this.finishRange(start, inner.log, inner.unwrap, range.num, offsetNs);
    }
    const body = this.parseRangeBody();
    if (body.rangeNs === undefined) {
      // After `| unwrap x` (and its label filters) Loki's grammar goes on with the range or `|`.
      throw body.unwrap !== undefined ? ts.unexpected('RANGE or |') : ts.unexpected();
    }
    return this.finishRange(start, body.log, body.unwrap, body.rangeNs, body.offsetNs);
  }

  private parseRangeBody(): {
    log: LogSelectorExpr;
    unwrap?: Unwrap;
    rangeNs?: number;
    offsetNs: number;
  } {
    const { ts } = this;
    if (ts.isOp('(')) {
      const r = this.parseLogRange();
      return { log: r.log, unwrap: r.unwrap, rangeNs: r.rangeNs, offsetNs: r.offsetNs };
    }
    let log = parseLogSelectorExpr(ts);
    let unwrap = atUnwrap(ts) ? parseUnwrap(ts) : undefined;
    if (ts.peek().type !== 'RANGE') return { log, unwrap, offsetNs: 0 };
    const range = ts.next();
    const offsetNs = this.parseOptionalOffset();
    if (log.stages.length === 0 && unwrap === undefined) {
      const stages = parseStages(ts);
      if (stages.length > 0) {
        const end = stages[stages.length - 1].pos.end;
        log = { ...log, pos: { start: log.pos.start, end }, stages };
      }
      if (atUnwrap(ts)) unwrap = parseUnwrap(ts);
    }
    return { log, unwrap, rangeNs: range.num, offsetNs };
  }

  private finishRange(
    start: number,
    log: LogSelectorExpr,
    unwrap: Unwrap | undefined,
    rangeNs: number,
    offsetNs: number,
  ): LogRange {
    return {
      kind: 'LogRange',
      pos: { start, end: this.ts.lastEnd() },
      log,
      ...(unwrap !== undefined ? { unwrap } : {}),
      rangeNs,
      offsetNs,
    };
  }

  private parseOptionalOffset(): number {
    const { ts } = this;
    if (!ts.isKw('offset')) return 0;
    ts.next();
    return ts.expectType('DURATION').num;
  }

  private parseOptionalGrouping(): Grouping | undefined {
    const { ts } = this;
    if (!ts.isKw('by') && !ts.isKw('without')) return undefined;
    const kw = ts.next();
    const labels = this.parseLabelList();
    return {
      kind: 'Grouping',
      pos: { start: kw.start, end: ts.lastEnd() },
      without: kw.value === 'without',
      labels,
    };
  }

  private parseVectorAggregation(): VectorAggregation {
    const { ts } = this;
    const fn = ts.next();
    let grouping = this.parseOptionalGrouping();
    ts.expectOp('(');
    const param = this.parseOptionalParam();
    const expr = this.parseMetricArg();
    ts.expectOpAfterExpr(')');
    if (grouping === undefined) grouping = this.parseOptionalGrouping();
    const node: VectorAggregation = {
      kind: 'VectorAggregation',
      pos: { start: fn.start, end: ts.lastEnd() },
      op: fn.value as VectorAggregation['op'],
      expr,
      ...writtenOptions(param, grouping),
    };
    this.defer(node.pos, () => checkVectorAggregation(node, param?.text));
    return node;
  }

  private parseVector(): VectorExpr {
    const { ts } = this;
    const fn = ts.next();
    ts.expectOp('(');
    const n = ts.expectType('NUMBER');
    const close = ts.expectOp(')');
    return { kind: 'VectorExpr', pos: { start: fn.start, end: close.end }, value: n.num };
  }

  private parseLabelReplace(): LabelReplaceExpr {
    const { ts } = this;
    const fn = ts.next();
    ts.expectOp('(');
    const expr = this.parseMetricArg();
    const args: string[] = [];
    for (let i = 0; i < 4; i++) {
      if (i === 0) ts.expectOpAfterExpr(',');
      else ts.expectOp(',');
      args.push(ts.expectType('STRING').value);
    }
    const close = ts.expectOp(')');
    // A bad regex is reported by validateExpr, after the whole query parsed, as in Loki.
    const [dst, replacement, src, regex] = args;
    const pos: Pos = { start: fn.start, end: close.end };
    return { kind: 'LabelReplaceExpr', pos, expr, dst, replacement, src, regex };
  }
}

/**
 * Parses a query that must be a log query (stream selector and pipeline). Any other query is
 * Loki's plain 400 `only log selector is supported`, not a parse error.
 */
export function parseLogSelector(input: string, validate = true): LogSelectorExpr {
  const expr = validate ? parseExpr(input) : parseWithoutValidation(input);
  if (expr.kind !== 'LogSelectorExpr')
    throw new LogsvcError('bad_request', 'only log selector is supported');
  return expr;
}

/**
 * Parses a bare stream selector `{a="b"}` and returns its matchers (series, stats, volume,
 * retention). A pipeline or a metric query is Loki's plain 400 `only label matchers are
 * supported` (`logqlmodel.ErrParseMatchers`). Without `validate` (Loki's series groups), a
 * selector of matchers that all accept the empty value (`{app=~".*"}`, `{}`) is allowed.
 */
export function parseMatchers(
  input: string,
  validate = true,
): LogSelectorExpr['selector']['matchers'] {
  const expr = validate ? parseExpr(input) : parseWithoutValidation(input);
  if (expr.kind !== 'LogSelectorExpr' || expr.stages.length > 0)
    throw new LogsvcError('bad_request', 'only label matchers are supported');
  return expr.selector.matchers;
}

export { parseStreamSelector };
