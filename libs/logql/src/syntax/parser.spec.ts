import { describe, expect, it } from 'vitest';
import type {
  BinaryExpr,
  LabelFilter,
  LogSelectorExpr,
  RangeAggregation,
  VectorAggregation,
} from './ast';
import { isLogExpr, isMetricExpr } from './ast';
import { ParseError } from './errors';
import { MAX_INPUT_SIZE, parseExpr, parseLogSelector, parseMatchers } from './parser';
import { printLabelFilter } from './printer';
import { stripPositions } from './strip-pos';
import { logSelectors, walk } from './walk';

function filterOf(q: string): LabelFilter {
  const e = parseExpr(`{app="x"} | ${q}`) as LogSelectorExpr;
  const stage = e.stages[0];
  if (stage.kind !== 'LabelFilterStage') throw new Error('not a label filter');
  return stage.filter;
}

/** A compact, fully parenthesised view of a label filter tree. */
function shape(f: LabelFilter): string {
  if (f.kind === 'BinaryLabelFilter') return `(${shape(f.left)} ${f.op} ${shape(f.right)})`;
  return printLabelFilter(f);
}

describe('parser', () => {
  it('builds a log query with its stages in source order', () => {
    const e = parseExpr('{app="foo", env=~"p.*"} |= "err" | json | level="error"');
    expect(isLogExpr(e)).toBe(true);
    expect(stripPositions(e)).toEqual({
      kind: 'LogSelectorExpr',
      selector: {
        kind: 'StreamSelector',
        matchers: [
          { kind: 'LabelMatcher', type: '=', name: 'app', value: 'foo' },
          { kind: 'LabelMatcher', type: '=~', name: 'env', value: 'p.*' },
        ],
      },
      stages: [
        {
          kind: 'LineFilter',
          op: '|=',
          values: [{ kind: 'LineFilterValue', type: 'text', value: 'err' }],
        },
        { kind: 'JsonParser', params: [] },
        {
          kind: 'LabelFilterStage',
          filter: {
            kind: 'StringLabelFilter',
            matcher: { kind: 'LabelMatcher', type: '=', name: 'level', value: 'error' },
          },
        },
      ],
    });
  });

  it('gives every node a position range inside the query', () => {
    const q = 'sum by (a) (rate({app="foo"} | json | x > 5 [5m])) / on(a) vector(1)';
    const e = parseExpr(q);
    expect(e.pos).toEqual({ start: 0, end: q.length });
    walk(e, (node) => {
      expect(node.pos.start).toBeGreaterThanOrEqual(0);
      expect(node.pos.end).toBeLessThanOrEqual(q.length);
      expect(node.pos.start).toBeLessThan(node.pos.end);
    });
    const sel = logSelectors(e)[0];
    expect(q.slice(sel.selector.pos.start, sel.selector.pos.end)).toBe('{app="foo"}');
  });

  it('follows Loki operator precedence and associativity', () => {
    const e = parseExpr('vector(1) + 2 * 3 ^ 2 ^ 2 > 4 and vector(1) or vector(2)') as BinaryExpr;
    expect(e.op).toBe('or');
    const and = e.lhs as BinaryExpr;
    expect(and.op).toBe('and');
    const cmp = and.lhs as BinaryExpr;
    expect(cmp.op).toBe('>');
    const plus = cmp.lhs as BinaryExpr;
    expect(plus.op).toBe('+');
    const mul = plus.rhs as BinaryExpr;
    expect(mul.op).toBe('*');
    const pow = mul.rhs as BinaryExpr;
    expect(pow.op).toBe('^');
    expect((pow.rhs as BinaryExpr).op).toBe('^');
    const left = parseExpr('1 - 2 - 3') as BinaryExpr;
    expect((left.lhs as BinaryExpr).op).toBe('-');
  });

  it('groups label filters as Loki grammar does', () => {
    expect(shape(filterOf('a="1" or b="2" and c="3"'))).toBe('(a="1" or (b="2" and c="3"))');
    expect(shape(filterOf('a="1" and b="2" or c="3"'))).toBe('((a="1" and b="2") or c="3")');
    expect(shape(filterOf('a="1", b="2" or c="3"'))).toBe('(a="1" and (b="2" or c="3"))');
    expect(shape(filterOf('a="1" b="2"'))).toBe('(a="1" and b="2")');
    expect(shape(filterOf('(a="1" or b="2") and c="3"'))).toBe('((a="1" or b="2") and c="3")');
  });

  it('reads numbers, durations and byte sizes in label filters', () => {
    expect(stripPositions(filterOf('x >= -1.5'))).toEqual({
      kind: 'NumberLabelFilter',
      name: 'x',
      op: '>=',
      value: -1.5,
    });
    expect(stripPositions(filterOf('x > 1h30m'))).toMatchObject({
      kind: 'DurationLabelFilter',
      valueNs: 5400e9,
    });
    expect(stripPositions(filterOf('x < 250us'))).toMatchObject({ valueNs: 250_000 });
    expect(stripPositions(filterOf('x == 2.5KiB'))).toMatchObject({
      kind: 'BytesLabelFilter',
      value: 2560,
    });
    expect(stripPositions(filterOf('x = 20MB'))).toMatchObject({ value: 20_000_000 });
  });

  it('accepts the range before or after the pipeline and normalises both', () => {
    const a = parseExpr('count_over_time({app="foo"} |= "x" [5m] offset 1m)');
    const b = parseExpr('count_over_time({app="foo"}[5m] offset 1m |= "x")');
    expect(stripPositions(a)).toEqual(stripPositions(b));
    const r = (a as RangeAggregation).range;
    expect(r.rangeNs).toBe(300e9);
    expect(r.offsetNs).toBe(60e9);
  });

  it('records unwrap conversions and post filters', () => {
    const e = parseExpr(
      'avg_over_time({app="foo"} | logfmt | unwrap duration_seconds(took) | __error__="" [1m]) by (a)',
    ) as RangeAggregation;
    expect(stripPositions(e.range.unwrap)).toEqual({
      kind: 'Unwrap',
      label: 'took',
      conversion: 'duration_seconds',
      postFilters: [
        {
          kind: 'StringLabelFilter',
          matcher: { kind: 'LabelMatcher', type: '=', name: '__error__', value: '' },
        },
      ],
    });
    expect(e.grouping).toMatchObject({ without: false, labels: ['a'] });
  });

  it('keeps grouping before or after a vector aggregation and the k parameter', () => {
    const a = parseExpr('topk by (a) (3, rate({app="foo"}[1m]))') as VectorAggregation;
    const b = parseExpr('topk(3, rate({app="foo"}[1m])) by (a)');
    expect(stripPositions(a)).toEqual(stripPositions(b));
    expect(a.param).toBe(3);
    expect(isMetricExpr(a)).toBe(true);
  });

  it('treats function names as labels unless a call follows, and keywords case-insensitively', () => {
    const e = parseExpr(
      'SUM BY (count) (Rate({app="foo"} | json | bytes > 1KB [1m]))',
    ) as VectorAggregation;
    expect(e.op).toBe('sum');
    expect(e.grouping?.labels).toEqual(['count']);
  });

  it('skips comments', () => {
    const e = parseExpr('{app="foo"} # |= "x"\n| json # trailing') as LogSelectorExpr;
    expect(e.stages.map((s) => s.kind)).toEqual(['JsonParser']);
  });

  it('rejects input of 128 KiB or more the way Loki does', () => {
    const q = `{app="${'x'.repeat(MAX_INPUT_SIZE)}"}`;
    expect(() => parseExpr(q)).toThrow(`parse error : input size too long (${q.length} > 131072)`);
  });

  it('reports line and column of errors on later lines', () => {
    try {
      parseExpr('sum(\n  rate({app="foo"}[5m]\n)');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ParseError);
      expect((err as ParseError).message).toBe(
        // After an expression a binary operator could follow too: Loki lists no expected token.
        'parse error at line 3, col 2: syntax error: unexpected $end',
      );
    }
  });

  it('parses selectors for the delete and series APIs', () => {
    expect(
      parseMatchers('{app="foo", env!="dev"}').map((m) => `${m.name}${m.type}${m.value}`),
    ).toEqual(['app=foo', 'env!=dev']);
    expect(() => parseMatchers('{app="foo"} |= "x"')).toThrow(
      /^only label matchers are supported$/,
    );
    expect(() => parseMatchers('rate({app="foo"}[1m])')).toThrow(
      /^only label matchers are supported$/,
    );
    expect(parseLogSelector('{app="foo"} | json').stages).toHaveLength(1);
    expect(() => parseLogSelector('rate({app="foo"}[1m])')).toThrow(
      /^only log selector is supported$/,
    );
    expect(parseLogSelector('{app!="foo"}', false).selector.matchers).toHaveLength(1);
  });
});
