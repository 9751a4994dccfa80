import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  BinaryOp,
  ComparisonOp,
  Expr,
  ExtractionParam,
  Grouping,
  LabelFilter,
  LabelMatcher,
  LabelSelectorItem,
  LineFilterValue,
  LogRange,
  LogSelectorExpr,
  MatchType,
  MetricExpr,
  PipelineStage,
  RangeAggregation,
  StreamSelector,
  Unwrap,
  VectorAggregation,
  VectorMatching,
} from './ast';
import { RANGE_FUNCTIONS, VECTOR_FUNCTIONS } from './functions';
import { parseExpr } from './parser';
import { prettyExpr } from './pretty';
import { printExpr } from './printer';
import { stripPositions } from './strip-pos';
import { ARITHMETIC_OPS, COMPARISON_BIN_OPS, RESERVED_WORDS, SET_OPS } from './tokens';

const P = { start: 0, end: 0 };

const ident = fc
  .stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/)
  .filter((s) => !RESERVED_WORDS.has(s.toLowerCase()));
const text = fc.string({ unit: 'binary', maxLength: 12 });
const validRegex = fc.constantFrom('.+', 'a|b', '(?i)err.*', '[0-9]+', '(?P<x>\\w+)', 'x*', '');
// The regexp and pattern parsers are built while parsing (Loki's newLabelParserExpr): only
// buildable ones parse.
const regexpParserRegex = fc.constantFrom(
  '(?P<x>\\w+)',
  '(?P<a>.*) "(?P<b>[^"]*)"\t',
  '(?i)^(?P<lvl>é\\S+)`',
  '(?P<x>a)|(b)',
);
const parserPattern = fc.constantFrom('<a> <b>', '<_> - "<m> <uri>"\t', '`é<x>\\');
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const nonNegative = finite.map((v) => (v === 0 ? 0 : Math.abs(v)));
const durationNs = fc.oneof(
  fc.integer({ min: 0, max: 10 ** 9 }).map((ms) => ms * 1e6),
  fc.integer({ min: -(10 ** 15), max: 10 ** 15 }),
);
const rangeNs = fc.integer({ min: 1, max: 10 ** 9 }).map((ms) => ms * 1e6);
const labelList = fc.array(ident, { maxLength: 3 });

function matcherOf(name: fc.Arbitrary<string>): fc.Arbitrary<LabelMatcher> {
  return fc
    .oneof(
      fc.record({
        name,
        type: fc.constantFrom<MatchType>('=', '!='),
        value: text,
      }),
      fc.record({ name, type: fc.constantFrom<MatchType>('=~', '!~'), value: validRegex }),
    )
    .map((m) => ({ kind: 'LabelMatcher' as const, pos: P, ...m }));
}
const matcher = matcherOf(ident);

const selector: fc.Arbitrary<StreamSelector> = fc
  .tuple(ident, fc.string({ minLength: 1, maxLength: 6 }), fc.array(matcher, { maxLength: 3 }))
  .map(([name, value, rest]) => ({
    kind: 'StreamSelector',
    pos: P,
    matchers: [{ kind: 'LabelMatcher', pos: P, type: '=', name, value }, ...rest],
  }));

const cmp = fc.constantFrom<ComparisonOp>('==', '=', '!=', '>', '>=', '<', '<=');
const leafFilter: fc.Arbitrary<LabelFilter> = fc.oneof(
  matcher.map((m) => ({ kind: 'StringLabelFilter' as const, pos: P, matcher: m })),
  fc
    .record({ name: ident, op: cmp, value: finite })
    .map((f) => ({ kind: 'NumberLabelFilter' as const, pos: P, ...f })),
  fc
    .record({ name: ident, op: cmp, valueNs: durationNs })
    .map((f) => ({ kind: 'DurationLabelFilter' as const, pos: P, ...f })),
  fc.record({ name: ident, op: cmp, value: fc.integer({ min: 0, max: 2 ** 50 }) }).map((f) => ({
    kind: 'BytesLabelFilter' as const,
    pos: P,
    ...f,
  })),
  fc
    .record({ name: ident, op: fc.constantFrom<'=' | '!='>('=', '!='), pattern: text })
    .map((f) => ({
      kind: 'IpLabelFilter' as const,
      pos: P,
      ...f,
    })),
);
const labelFilter: fc.Arbitrary<LabelFilter> = fc.letrec<{ f: LabelFilter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafFilter,
    fc
      .record({ op: fc.constantFrom<'and' | 'or'>('and', 'or'), left: tie('f'), right: tie('f') })
      .map((b) => ({
        kind: 'BinaryLabelFilter' as const,
        pos: P,
        ...b,
      })),
  ),
})).f;

const params: fc.Arbitrary<ExtractionParam[]> = fc.array(
  fc.tuple(ident, fc.option(text, { nil: undefined })).map(([name, expr]) => ({
    kind: 'ExtractionParam' as const,
    pos: P,
    name,
    expression: expr ?? name,
  })),
  { maxLength: 3 },
);
const selectorItems: fc.Arbitrary<LabelSelectorItem[]> = fc.array(
  fc.oneof(
    ident.map((name) => ({ kind: 'LabelSelectorItem' as const, pos: P, name })),
    matcher.map((m) => ({ kind: 'LabelSelectorItem' as const, pos: P, name: m.name, matcher: m })),
  ),
  { minLength: 1, maxLength: 3 },
);
const lineFilterValue: fc.Arbitrary<LineFilterValue> = fc
  .record({ type: fc.constantFrom<'text' | 'ip'>('text', 'text', 'ip'), value: text })
  .map((v) => ({ kind: 'LineFilterValue', pos: P, ...v }));

const stage: fc.Arbitrary<PipelineStage> = fc.oneof(
  fc
    .record({
      op: fc.constantFrom('|=', '!=', '|~', '!~', '|>', '!>' as const),
      values: fc.array(lineFilterValue, { minLength: 1, maxLength: 3 }),
    })
    .map((f) => ({ kind: 'LineFilter' as const, pos: P, ...f })),
  params.map((p) => ({ kind: 'JsonParser' as const, pos: P, params: p })),
  fc.record({ strict: fc.boolean(), keepEmpty: fc.boolean(), params }).map((f) => ({
    kind: 'LogfmtParser' as const,
    pos: P,
    ...f,
  })),
  regexpParserRegex.map((regex) => ({ kind: 'RegexpParser' as const, pos: P, regex })),
  parserPattern.map((pattern) => ({ kind: 'PatternParser' as const, pos: P, pattern })),
  fc.constant({ kind: 'UnpackParser' as const, pos: P }),
  labelFilter.map((filter) => ({ kind: 'LabelFilterStage' as const, pos: P, filter })),
  text.map((template) => ({ kind: 'LineFormat' as const, pos: P, template })),
  fc
    .array(
      fc.oneof(
        fc.record({ name: ident, rename: fc.constant(true), value: ident }),
        fc.record({ name: ident, rename: fc.constant(false), value: text }),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((items) => ({
      kind: 'LabelFormat' as const,
      pos: P,
      items: items.map((i) => ({ kind: 'LabelFormatItem' as const, pos: P, ...i })),
    })),
  fc.constant({ kind: 'Decolorize' as const, pos: P }),
  selectorItems.map((items) => ({ kind: 'DropLabels' as const, pos: P, items })),
  selectorItems.map((items) => ({ kind: 'KeepLabels' as const, pos: P, items })),
);

/**
 * `| keep a != "x"` reads as keep with matcher `a!="x"` (in Loki too): a drop/keep ending in a
 * bare name cannot be followed by a `!=`/`!~` line filter in printed form.
 */
function printable(stages: PipelineStage[]): boolean {
  return stages.every((s, i) => {
    const next = stages[i + 1];
    if (next?.kind !== 'LineFilter' || (next.op !== '!=' && next.op !== '!~')) return true;
    if (s.kind !== 'DropLabels' && s.kind !== 'KeepLabels') return true;
    return s.items[s.items.length - 1].matcher !== undefined;
  });
}

const logExpr: fc.Arbitrary<LogSelectorExpr> = fc
  .tuple(selector, fc.array(stage, { maxLength: 4 }).filter(printable))
  .map(([sel, stages]) => ({ kind: 'LogSelectorExpr', pos: P, selector: sel, stages }));

const unwrap: fc.Arbitrary<Unwrap> = fc
  .record({
    label: ident,
    conversion: fc.constantFrom('', 'bytes', 'duration', 'duration_seconds' as const),
    postFilters: fc.array(labelFilter, { maxLength: 2 }),
  })
  .map((u) => ({ kind: 'Unwrap', pos: P, ...u }));

const grouping: fc.Arbitrary<Grouping> = fc
  .record({ without: fc.boolean(), labels: labelList })
  .map((g) => ({ kind: 'Grouping', pos: P, ...g }));

const rangeAgg: fc.Arbitrary<RangeAggregation> = fc
  .tuple(
    fc.constantFrom(...RANGE_FUNCTIONS.values()),
    logExpr,
    unwrap,
    rangeNs,
    fc.option(
      durationNs.filter((d) => d !== 0),
      { nil: undefined },
    ),
    grouping,
    fc.boolean(),
    fc.boolean(),
    nonNegative,
  )
  .map(([sig, log, uw, range, offset, g, useGrouping, useUnwrap, q]) => {
    const withUnwrap = sig.unwrap === 'required' || (sig.unwrap === 'optional' && useUnwrap);
    const r: LogRange = {
      kind: 'LogRange',
      pos: P,
      log,
      ...(withUnwrap ? { unwrap: uw } : {}),
      rangeNs: range,
      offsetNs: offset ?? 0,
    };
    return {
      kind: 'RangeAggregation',
      pos: P,
      op: sig.name,
      range: r,
      ...(sig.param === 'required' ? { param: q } : {}),
      ...(sig.allowsGrouping && useGrouping ? { grouping: g } : {}),
    };
  });

const setOps: ReadonlySet<BinaryOp> = new Set(SET_OPS);
const binOp = fc.constantFrom<BinaryOp>(...SET_OPS, ...COMPARISON_BIN_OPS, ...ARITHMETIC_OPS);
const matching: fc.Arbitrary<VectorMatching> = fc
  .record({
    on: fc.boolean(),
    labels: labelList,
    card: fc.constantFrom('one-to-one', 'many-to-one', 'one-to-many' as const),
    include: labelList,
  })
  .map((m) => ({
    kind: 'VectorMatching',
    pos: P,
    ...m,
    include: m.card === 'one-to-one' ? [] : m.include,
  }));

function isConstant(e: MetricExpr): boolean {
  return (
    e.kind === 'NumberLiteral' ||
    (e.kind === 'BinaryExpr' && isConstant(e.lhs) && isConstant(e.rhs))
  );
}

const metric: fc.Arbitrary<MetricExpr> = fc.letrec<{ m: MetricExpr }>((tie) => ({
  m: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    rangeAgg,
    finite.map((value) => ({ kind: 'NumberLiteral' as const, pos: P, value })),
    nonNegative.map((value) => ({ kind: 'VectorExpr' as const, pos: P, value })),
    fc
      .tuple(
        fc.constantFrom(...VECTOR_FUNCTIONS.values()),
        tie('m'),
        fc.integer({ min: 1, max: 10 ** 6 }),
        fc.option(grouping, { nil: undefined }),
      )
      .map(([sig, expr, k, g]): VectorAggregation => {
        let gr = g;
        if (sig.grouping === 'forbidden') gr = undefined;
        if (sig.grouping === 'empty-only' && gr !== undefined)
          gr = { ...gr, without: false, labels: [] };
        return {
          kind: 'VectorAggregation',
          pos: P,
          op: sig.name,
          expr,
          ...(sig.param === 'k' ? { param: k } : {}),
          ...(gr !== undefined ? { grouping: gr } : {}),
        };
      }),
    fc
      .record({
        op: binOp,
        lhs: tie('m'),
        rhs: tie('m'),
        returnBool: fc.boolean(),
        matching: fc.option(matching, { nil: undefined }),
      })
      .filter((b) => !(setOps.has(b.op) && (isConstant(b.lhs) || isConstant(b.rhs))))
      .map((b) => {
        const { matching: m, ...rest } = b;
        return {
          kind: 'BinaryExpr' as const,
          pos: P,
          ...rest,
          ...(m !== undefined ? { matching: m } : {}),
        };
      }),
    fc
      .record({ expr: tie('m'), dst: text, replacement: text, src: text, regex: validRegex })
      .map((l) => ({ kind: 'LabelReplaceExpr' as const, pos: P, ...l })),
  ),
})).m;

const expr: fc.Arbitrary<Expr> = fc.oneof(logExpr, metric);

describe('printer/parser round trip on generated ASTs', () => {
  it('parse(print(ast)) equals ast', () => {
    fc.assert(
      fc.property(expr, (ast) => {
        const printed = printExpr(ast);
        const reparsed = parseExpr(printed);
        expect(stripPositions(reparsed)).toEqual(stripPositions(ast));
      }),
      { numRuns: 600 },
    );
  });

  it('parse(prettyExpr(ast)) equals ast for the multi-line form too', () => {
    fc.assert(
      fc.property(expr, (ast) => {
        expect(stripPositions(parseExpr(prettyExpr(ast)))).toEqual(stripPositions(ast));
      }),
      { numRuns: 400 },
    );
  });

  it('printing is idempotent: print(parse(print(ast))) equals print(ast)', () => {
    fc.assert(
      fc.property(expr, (ast) => {
        const printed = printExpr(ast);
        expect(printExpr(parseExpr(printed))).toBe(printed);
      }),
      { numRuns: 200 },
    );
  });
});
