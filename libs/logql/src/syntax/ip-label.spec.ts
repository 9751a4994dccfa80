/**
 * `ip` is the IP filter only as `ip(` (Loki's lexer: a function token needs `(` after it, or
 * `by`/`without` and `(`); anywhere else it is a label name. The same holds for
 * `label_replace`.
 */
import { describe, expect, it } from 'vitest';
import type { LogSelectorExpr, RangeAggregation, VectorAggregation } from './ast';
import { parseExpr } from './parser';
import { parseErrorOf } from './testdata/parse-error-of';
import { printExpr } from './printer';
import { stripPositions } from './strip-pos';

function stagesOf(q: string): readonly unknown[] {
  return (stripPositions(parseExpr(q)) as LogSelectorExpr).stages;
}

describe('ip as a label name', () => {
  it.each([
    ['| ip="10.1.2.3"', { type: '=', value: '10.1.2.3' }],
    ['| ip!="x"', { type: '!=', value: 'x' }],
    ['| ip=~"10.*"', { type: '=~', value: '10.*' }],
    ['| ip!~"10.*"', { type: '!~', value: '10.*' }],
    ['| IP="x"', { type: '=', value: 'x', name: 'IP' }],
  ])('is a string label filter in `%s`', (filter, matcher) => {
    expect(stagesOf(`{app="a"} | logfmt ${filter}`)[1]).toEqual({
      kind: 'LabelFilterStage',
      filter: {
        kind: 'StringLabelFilter',
        matcher: { kind: 'LabelMatcher', name: 'ip', ...matcher },
      },
    });
  });

  it('is a number, duration and bytes label filter', () => {
    expect(stagesOf(`{app="a"} | ip > 5 | ip < 1s | ip >= 2KB`)).toMatchObject([
      { filter: { kind: 'NumberLabelFilter', name: 'ip', value: 5 } },
      { filter: { kind: 'DurationLabelFilter', name: 'ip', valueNs: 1e9 } },
      { filter: { kind: 'BytesLabelFilter', name: 'ip', value: 2000 } },
    ]);
  });

  it('is the label of an ip() label filter, also named ip', () => {
    expect(stagesOf('{app="a"} | ip=ip("6.7.8.9") | ip != ip("10.0.0.0/8")')).toMatchObject([
      { filter: { kind: 'IpLabelFilter', name: 'ip', op: '=', pattern: '6.7.8.9' } },
      { filter: { kind: 'IpLabelFilter', name: 'ip', op: '!=', pattern: '10.0.0.0/8' } },
    ]);
  });

  it('stays the IP line filter before `(`', () => {
    expect(stagesOf('{app="a"} |= ip("1.2.3.4") != ip ("::1")')).toEqual([
      {
        kind: 'LineFilter',
        op: '|=',
        values: [{ kind: 'LineFilterValue', type: 'ip', value: '1.2.3.4' }],
      },
      {
        kind: 'LineFilter',
        op: '!=',
        values: [{ kind: 'LineFilterValue', type: 'ip', value: '::1' }],
      },
    ]);
  });

  it('is a stream selector label, parser parameter, format target, drop/keep and unwrap label', () => {
    const e = parseExpr(
      'sum_over_time({ip="x"} | json ip="a.ip" | label_format ip=addr, src="{{.ip}}" | keep ip, b | drop ip | unwrap ip [1m])',
    ) as RangeAggregation;
    expect(e.range.log.selector.matchers[0]).toMatchObject({ name: 'ip', value: 'x' });
    expect(e.range.log.stages.map((s) => stripPositions(s))).toEqual([
      {
        kind: 'JsonParser',
        params: [{ kind: 'ExtractionParam', name: 'ip', expression: 'a.ip' }],
      },
      {
        kind: 'LabelFormat',
        items: [
          { kind: 'LabelFormatItem', name: 'ip', rename: true, value: 'addr' },
          { kind: 'LabelFormatItem', name: 'src', rename: false, value: '{{.ip}}' },
        ],
      },
      {
        kind: 'KeepLabels',
        items: [
          { kind: 'LabelSelectorItem', name: 'ip' },
          { kind: 'LabelSelectorItem', name: 'b' },
        ],
      },
      { kind: 'DropLabels', items: [{ kind: 'LabelSelectorItem', name: 'ip' }] },
    ]);
    expect(e.range.unwrap?.label).toBe('ip');
    expect(parseExpr('{app="a"} | label_format addr=ip')).toMatchObject({
      stages: [{ items: [{ name: 'addr', rename: true, value: 'ip' }] }],
    });
  });

  it('is a grouping and vector matching label', () => {
    const by = parseExpr('sum by (ip) (count_over_time({app="a"}[1m]))') as VectorAggregation;
    expect(by.grouping).toMatchObject({ without: false, labels: ['ip'] });
    const without = parseExpr('sum(count_over_time({app="a"}[1m])) without (ip, label_replace)');
    expect((without as VectorAggregation).grouping).toMatchObject({
      without: true,
      labels: ['ip', 'label_replace'],
    });
    expect(
      printExpr(parseExpr('rate({app="a"}[1m]) / on (ip) group_left (ip) rate({app="b"}[1m])')),
    ).toBe('rate({app="a"}[1m]) / on (ip) group_left (ip) rate({app="b"}[1m])');
  });

  it('prints back to a query that parses to the same tree', () => {
    const q = '{ip="x"} | logfmt | ip="2.3.4.5" | ip=ip("6.7.8.9") |= ip("1.2.3.4") | keep ip';
    const ast = parseExpr(q);
    expect(stripPositions(parseExpr(printExpr(ast)))).toEqual(stripPositions(ast));
  });

  it.each([
    // Loki's parser_test.go: a comparison other than = and != before ip( fails at ip.
    [
      '{ foo = "bar" }|logfmt|addr>=ip("1.2.3.4")',
      'parse error at line 1, col 30: syntax error: unexpected ip',
    ],
    [
      '{ foo = "bar" }|logfmt|addr<ip("1.2.3.4")',
      'parse error at line 1, col 29: syntax error: unexpected ip',
    ],
    ['{app="a"} | ip("1.2.3.4")', 'parse error at line 1, col 13: syntax error: unexpected ip'],
    [
      '{app="a"} | x = ip "1.2.3.4"',
      'parse error at line 1, col 17: syntax error: unexpected IDENTIFIER',
    ],
    [
      '{app="a"} |= ip "1.2.3.4"',
      'parse error at line 1, col 14: syntax error: unexpected IDENTIFIER, expecting STRING or ip',
    ],
    [
      'sum by (ip(x)) (rate({app="a"}[1m]))',
      'parse error at line 1, col 9: syntax error: unexpected ip, expecting IDENTIFIER or )',
    ],
    ['label_replace', 'parse error at line 1, col 1: syntax error: unexpected IDENTIFIER'],
  ])('rejects %s', (q, message) => {
    expect(parseErrorOf(q)).toBe(message);
  });
});
