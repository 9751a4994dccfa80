import { describe, expect, it } from 'vitest';
import { formatQuery } from './format';
import { parseExpr } from './parser';
import { printExpr } from './printer';

/** `print(parse(in)) === (out ?? in)`. */
const ROUND_TRIPS: ReadonlyArray<{ in: string; out?: string }> = [
  { in: '{app="foo"}' },
  { in: '{ app = "foo" , env!~"dev|test" }', out: '{app="foo", env!~"dev|test"}' },
  { in: '{app=`raw\\d`}', out: '{app="raw\\\\d"}' },
  { in: '{app="a\\u00e9\\x41"}', out: '{app="aéA"}' },
  { in: '{app="tab\\there"}' },
  { in: '{app="foo"} |= "a" != "b" |~ "c" !~ "d" |> "<_> e" !> "f"' },
  { in: '{app="foo"} |= "a" or "b" or ip("1.2.3.4")' },
  { in: '{app="foo"}|="a"', out: '{app="foo"} |= "a"' },
  { in: '{app="foo"} | json | logfmt | unpack | decolorize' },
  { in: '{app="foo"} | json a="b.c", d', out: '{app="foo"} | json a="b.c", d' },
  { in: '{app="foo"} | json d="d"', out: '{app="foo"} | json d' },
  {
    in: '{app="foo"} | logfmt --keep-empty --strict a',
    out: '{app="foo"} | logfmt --strict --keep-empty a',
  },
  { in: '{app="foo"} | regexp `(?P<a>\\w+)`', out: '{app="foo"} | regexp "(?P<a>\\\\w+)"' },
  { in: '{app="foo"} | pattern "<a> <_>"' },
  { in: '{app="foo"} | line_format "{{.a}}"' },
  { in: '{app="foo"} | label_format a=b, c="{{.d}}"' },
  { in: '{app="foo"} | drop a, b="x" | keep c, d=~"e.*"' },
  { in: '{app="foo"} | x > 1 and y < 2', out: '{app="foo"} | x>1 and y<2' },
  { in: '{app="foo"} | x="a" or y="b" and z="c"', out: '{app="foo"} | x="a" or y="b" and z="c"' },
  {
    in: '{app="foo"} | (x="a" or y="b") and z="c"',
    out: '{app="foo"} | (x="a" or y="b") and z="c"',
  },
  { in: '{app="foo"} | x="a", y="b" or z="c"', out: '{app="foo"} | x="a", y="b" or z="c"' },
  { in: '{app="foo"} | x="a" y="b"', out: '{app="foo"} | x="a" and y="b"' },
  {
    in: '{app="foo"} | latency >= 1h30m | size < 2KiB',
    out: '{app="foo"} | latency>=1h30m | size<2KiB',
  },
  { in: '{app="foo"} | latency > 250us', out: '{app="foo"} | latency>250us' },
  { in: '{app="foo"} | latency > 1.5s', out: '{app="foo"} | latency>1s500ms' },
  { in: '{app="foo"} | size > 2.5KiB', out: '{app="foo"} | size>2560B' },
  { in: '{app="foo"} | size > 20MB', out: '{app="foo"} | size>20MB' },
  { in: '{app="foo"} | addr = ip("10.0.0.0/8")', out: '{app="foo"} | addr=ip("10.0.0.0/8")' },
  { in: '{app="foo"} | v > -1.5', out: '{app="foo"} | v>-1.5' },
  { in: 'count_over_time({app="foo"}[5m])' },
  {
    in: 'count_over_time({app="foo"}[5m] |= "x")',
    out: 'count_over_time({app="foo"} |= "x" [5m])',
  },
  {
    in: 'count_over_time(({app="foo"} |= "x")[5m])',
    out: 'count_over_time({app="foo"} |= "x" [5m])',
  },
  { in: 'count_over_time({app="foo"}[1h30m] offset 5m)' },
  { in: 'count_over_time({app="foo"}[90m])', out: 'count_over_time({app="foo"}[1h30m])' },
  { in: 'count_over_time({app="foo"}[5m] offset -1h)' },
  {
    in: 'sum_over_time({app="foo"} | json | unwrap bytes(size) | __error__="" [1m])',
  },
  {
    in: 'quantile_over_time(0.99,{app="foo"} | unwrap latency [1m]) by (a,b)',
    out: 'quantile_over_time(0.99, {app="foo"} | unwrap latency [1m]) by (a, b)',
  },
  { in: 'sum(rate({app="foo"}[1m])) by (a)', out: 'sum by (a) (rate({app="foo"}[1m]))' },
  { in: 'sum by () (rate({app="foo"}[1m]))' },
  {
    in: 'topk(5, rate({app="foo"}[1m])) without (a)',
    out: 'topk without (a) (5, rate({app="foo"}[1m]))',
  },
  { in: '1 + 2 * 3' },
  { in: '(1 + 2) * 3' },
  { in: '1 - (2 - 3)' },
  { in: '(1 - 2) - 3', out: '1 - 2 - 3' },
  { in: '2 ^ 3 ^ 2' },
  { in: '(2 ^ 3) ^ 2' },
  { in: '-1 + +2', out: '-1 + 2' },
  { in: '1 > bool 2' },
  {
    in: 'rate({a="b"}[1m]) / on(x) group_left(y) rate({a="c"}[1m])',
    out: 'rate({a="b"}[1m]) / on (x) group_left (y) rate({a="c"}[1m])',
  },
  {
    in: 'rate({a="b"}[1m]) / ignoring(x) group_right() (rate({a="c"}[1m]) + 1)',
    out: 'rate({a="b"}[1m]) / ignoring (x) group_right () (rate({a="c"}[1m]) + 1)',
  },
  { in: 'sum(rate({a="b"}[1m])) or vector(0)' },
  { in: 'label_replace(rate({a="b"}[1m]), "dst", "$1", "src", "(.*)")' },
  { in: '1e+21' },
  { in: '1e21', out: '1e+21' },
  { in: '0.000001', out: '0.000001' },
  { in: '1e-7' },
];

describe('printer', () => {
  it.each(ROUND_TRIPS)('prints $in', (row) => {
    expect(printExpr(parseExpr(row.in))).toBe(row.out ?? row.in);
  });

  it('reads a parenthesis after group_left as its label list, as Loki does', () => {
    expect(() =>
      parseExpr('rate({a="b"}[1m]) / on(x) group_left (sum(rate({a="c"}[1m])))'),
    ).toThrow('parse error at line 1, col 39: syntax error: unexpected SUM, expecting IDENTIFIER');
  });

  it('formats a short query on one line, as format_query answers', () => {
    expect(formatQuery('sum(rate({app="foo"}|="err"[5m]))by(level)')).toBe(
      'sum by (level) (rate({app="foo"} |= "err" [5m]))',
    );
  });

  it("formats a long query over several lines in Loki's layout", () => {
    const q =
      'quantile_over_time(0.99, {cluster="prod", namespace=~"loki-.*"} |= "level=error" | json | unwrap duration_seconds(took) | __error__="" [5m] offset 1h) by (pod) > 2';
    expect(formatQuery(q)).toBe(
      [
        '  quantile_over_time(',
        '    0.99,',
        '    {cluster="prod", namespace=~"loki-.*"} |= "level=error" | json',
        '      | unwrap duration_seconds(took)',
        '      | __error__="" [5m] offset 1h',
        '  ) by (pod)',
        '>',
        '  2',
      ].join('\n'),
    );
    const log = `{app="foo"} |= "a long enough line filter" | logfmt | level="error" | line_format "{{.msg}} {{.caller}}"`;
    expect(formatQuery(log)).toBe(
      [
        '{app="foo"}',
        '  |= "a long enough line filter"',
        '  | logfmt',
        '  | level="error"',
        '  | line_format "{{.msg}} {{.caller}}"',
      ].join('\n'),
    );
  });

  it('keeps needed parentheses when splitting binary expressions', () => {
    const q = `(sum(rate({cluster="prod", container="ingester"}[5m])) + sum(rate({cluster="prod", container="querier"}[5m]))) * 2`;
    const formatted = formatQuery(q);
    expect(formatted.split('\n')[0]).toBe('  (');
    expect(printExpr(parseExpr(formatted))).toBe(printExpr(parseExpr(q)));
  });

  it('rejects an invalid query in format_query with a Loki-style message', () => {
    expect(() => formatQuery('sum(')).toThrow(/^parse error at line 1, col 5: syntax error/);
  });
});
