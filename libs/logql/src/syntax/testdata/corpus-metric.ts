/** Corpus: metric queries (range and vector aggregations, binary operators). */
import { ARITHMETIC_OPS, COMPARISON_BIN_OPS, SET_OPS } from '../tokens';
import { at, atLine0, bad, EMPTY_COMPATIBLE, ok, semantic, type CorpusEntry } from './corpus-entry';

/** Range aggregations. */
export const rangeAggs: CorpusEntry[] = [
  ok('count_over_time({job="mysql"}[5m])'),
  ok('count_over_time({foo="bar"}[12h] |= "error")'),
  ok('count_over_time({foo="bar"} |= "error" [12h])'),
  ok('count_over_time({foo=~`bar\\w+`}[12h] |~ `error\\`)'),
  ok('count_over_time({ foo = "bar" }[12m])'),
  ok('bytes_over_time({ foo = "bar" }[12m])'),
  ok('bytes_rate({ foo = "bar" }[12m])'),
  ok('rate({ foo = "bar" }[5h])'),
  ok('rate({ foo = "bar" }[5d])'),
  ok('count_over_time({ foo = "bar" }[1w])'),
  ok('sum(rate({ foo ="bar" }[1y]))'),
  ok('absent_over_time({ foo = "bar" }[1w])'),
  ok('rate({job="mysql"} |= "error" != "timeout" [10s])'),
  ok('count_over_time(({foo="bar"} |= "baz" |~ "blip" != "flip" !~ "flap")[5m])'),
  ok('bytes_over_time(({foo="bar"} |= "baz" |~ "blip" != "flip" !~ "flap" | unpack)[5m])'),
  ok('count_over_time({foo="bar"}[5m] |= "baz" |~ "blip" != "flip" !~ "flap")'),
  ok('count_over_time(({app="foo"})[5m])'),
  ok('count_over_time(({app="foo"}[5m]))'),
  ok('count_over_time({app="foo"}[5m] offset 1h)'),
  ok('count_over_time({app="foo"}[5m] offset -1h)'),
  ok('count_over_time({app="foo"} | json [5m] offset 1h30m)'),
  ok('count_over_time({app="foo"}[5m] offset 1h | json)'),
  ok('count_over_time({app="foo"}[1h30m])'),
  ok('count_over_time({app="foo"}[500ms])'),
  ok('count_over_time({app="foo"}[0s])'),
  ok('rate({app="foo"}[5m] | logfmt)'),
  ok(
    'sum_over_time({namespace="tns"} |= "level=error" | json |foo>=5,bar<25ms| unwrap bytes(foo) [5m])',
  ),
  ok(
    'sum_over_time({namespace="tns"} |= "level=error" | json |foo>=5,bar<25ms| unwrap bytes(foo) [5m] offset 5m)',
  ),
  ok(
    'sum_over_time({namespace="tns"} |= "level=error" | json |foo>=5,bar<25ms| unwrap latency [5m])',
  ),
  ok(
    'sum_over_time({namespace="tns"} |= "level=error" | json |foo==5,bar<25ms| unwrap latency [5m])',
  ),
  ok('stddev_over_time({app="foo"} |= "bar" | unwrap bar [5m])'),
  ok('stdvar_over_time({app="foo"} | json | unwrap duration(foo) [5m])'),
  ok('min_over_time({app="foo"} | unwrap bar [5m])'),
  ok('min_over_time({app="foo"} | unwrap bar [5m]) by ()'),
  ok('max_over_time({app="foo"} | unwrap bar [5m]) without ()'),
  ok('max_over_time({app="foo"} | unwrap bar [5m]) without (foo,bar)'),
  ok('max_over_time({app="foo"} | unwrap bar [5m] offset 5m) without (foo,bar)'),
  ok('max_over_time(({app="foo"} |= "bar" | json | unwrap foo )[5m])'),
  ok('quantile_over_time(0.99998,{app="foo"} |= "bar" | json | unwrap foo [5m])'),
  ok('quantile_over_time(0.99,{app="foo"} | json | unwrap latency [5m]) by (namespace,instance)'),
  ok('quantile_over_time(0.99, {app="foo"} | unwrap duration_seconds(latency) [5m])'),
  ok('avg_over_time({app="foo"} | logfmt | unwrap latency | __error__="" [1m]) by (host)'),
  ok('avg_over_time({app="foo"} | logfmt | unwrap latency | __error__="" | latency > 0 [1m])'),
  ok('first_over_time({app="foo"} | unwrap x [1m]) by (a)'),
  ok('last_over_time({app="foo"} | unwrap x [1m]) without (a)'),
  ok('rate({app="foo"} | unwrap x [1m])'),
  ok('rate_counter({app="foo"} | unwrap x [1m])'),
  ok('absent_over_time({app="foo"} | unwrap x [1m])'),
  ok('sum_over_time({app="foo"} | unwrap bytes(size) [1m])'),
  ok('sum_over_time({app="foo"} [1m] | unwrap size)'),
  ok('sum_over_time({app="foo"} [1m] | json | unwrap size)'),
  ok('sum_over_time({app="foo"} [1m] offset 5m | json | unwrap size)'),
  ok('sum_over_time({app="foo"} | unwrap bytes [1m])'),
  ok('sum_over_time({app="foo"} | unwrap duration [1m])'),
  ok('COUNT_OVER_TIME({app="foo"}[1m])'),
  ok('Rate({app="foo"}[1m])'),
  ok('count_over_time ({app="foo"}[1m])'),
  semantic(
    'sum_over_time({app="foo"} |= "bar" | json [5m])',
    'invalid aggregation sum_over_time without unwrap',
  ),
  semantic(
    'count_over_time({app="foo"} |= "foo" | json | unwrap foo [5m])',
    'invalid aggregation count_over_time with unwrap',
  ),
  semantic(
    'bytes_over_time({app="foo"} | unwrap foo [5m])',
    'invalid aggregation bytes_over_time with unwrap',
  ),
  semantic(
    'bytes_rate({app="foo"} | unwrap foo [5m])',
    'invalid aggregation bytes_rate with unwrap',
  ),
  semantic('avg_over_time({app="foo"}[5m])', 'invalid aggregation avg_over_time without unwrap'),
  semantic('max_over_time({app="foo"}[5m])', 'invalid aggregation max_over_time without unwrap'),
  semantic('min_over_time({app="foo"}[5m])', 'invalid aggregation min_over_time without unwrap'),
  semantic(
    'first_over_time({app="foo"}[5m])',
    'invalid aggregation first_over_time without unwrap',
  ),
  semantic('last_over_time({app="foo"}[5m])', 'invalid aggregation last_over_time without unwrap'),
  semantic(
    'stddev_over_time({app="foo"}[5m])',
    'invalid aggregation stddev_over_time without unwrap',
  ),
  semantic(
    'stdvar_over_time({app="foo"}[5m])',
    'invalid aggregation stdvar_over_time without unwrap',
  ),
  semantic('rate_counter({app="foo"}[5m])', 'invalid aggregation rate_counter without unwrap'),
  semantic(
    'quantile_over_time(0.5, {app="foo"}[5m])',
    'invalid aggregation quantile_over_time without unwrap',
  ),
  semantic(
    'absent_over_time({ foo = "bar" }[5h]) by (foo)',
    'grouping not allowed for absent_over_time aggregation',
  ),
  semantic('rate({app="foo"}[5m]) by (foo)', 'grouping not allowed for rate aggregation'),
  semantic(
    'count_over_time({app="foo"}[5m]) by (foo)',
    'grouping not allowed for count_over_time aggregation',
  ),
  semantic(
    'bytes_rate({app="foo"}[5m]) without (foo)',
    'grouping not allowed for bytes_rate aggregation',
  ),
  semantic(
    'sum_over_time({namespace="tns"} |= "level=error" | json |foo>=5,bar<25ms| unwrap latency [5m]) by (foo)',
    'grouping not allowed for sum_over_time aggregation',
  ),
  semantic(
    'rate_counter({app="foo"} | unwrap x [5m]) by (foo)',
    'grouping not allowed for rate_counter aggregation',
  ),
  semantic(
    'sum_over_time(50,{namespace="tns"} |= "level=error" | json |foo>=5,bar<25ms| unwrap latency [5m])',
    'parameter 50 not supported for operation sum_over_time',
  ),
  semantic(
    'quantile_over_time({namespace="tns"} |= "level=error" | json |foo>=5,bar<25ms| unwrap latency [5m])',
    'parameter required for operation quantile_over_time',
  ),
  semantic('count_over_time({app=~".*"}[5m])', EMPTY_COMPATIBLE),
  semantic('count_over_time({foo!="bar"}[5m])', EMPTY_COMPATIBLE),
  semantic('count_over_time({app!~"bar|baz"}[5m])', EMPTY_COMPATIBLE),
  at(
    'quantile_over_time(foo,{namespace="tns"} |= "level=error" | json |foo>=5,bar<25ms| unwrap latency [5m])',
    20,
    'syntax error: unexpected IDENTIFIER, expecting NUMBER or { or (',
  ),
  atLine0('rate({ foo = "bar" }[5minutes])', 21, 'unknown unit "minutes" in duration "5minutes"'),
  atLine0('rate({ foo = "bar" }[5)', 21, "missing closing ']' in duration"),
  at('count_over_time({app="foo"})', 28, 'syntax error: unexpected )'),
  at('vector(1e)', 8, 'exponent has no digits'),
  atLine0(
    'count_over_time({a="b"} | unwrap != [5m])',
    34,
    'syntax error: unexpected !=, expecting IDENTIFIER or BYTES_CONV or DURATION_CONV or DURATION_SECONDS_CONV',
  ),
  // Aggregation errors are reported after the whole query parsed, syntax errors first.
  at('sum(rate({a="b"}[5m]) by (app)', 31, 'syntax error: unexpected $end'),
  at('count_over_time({a="b"} | unwrap x [5m])/', 42, 'syntax error: unexpected $end'),
  at('sum by (app)] (rate({a="b"}[5m]))', 13, 'syntax error: unexpected ], expecting ('),
  at(
    'sum_over_time({app="foo"} | logfmt | unwrap bytes)',
    50,
    'syntax error: unexpected ), expecting RANGE or |',
  ),
  bad('rate({app="foo"}[1.5m])'),
  bad('rate({app="foo"}[])'),
  bad('rate({app="foo"}[5m]'),
  bad('rate({app="foo"}[5m] offset)'),
  bad('rate({app="foo"}[5m] offset 5)'),
  bad('rate({app="foo"}[5m]) offset 5m'),
  bad('rate({app="foo"}[5m] [5m])'),
  at(
    'rate({app="foo"} | unwrap x | json [5m])',
    31,
    'syntax error: unexpected json, expecting IDENTIFIER or (',
  ),
  at(
    'rate({app="foo"}[5m] | unwrap x | json)',
    35,
    'syntax error: unexpected json, expecting IDENTIFIER or (',
  ),
  at(
    'sum_over_time({app="foo"} | unwrap x | unwrap y [5m])',
    40,
    'syntax error: unexpected unwrap, expecting IDENTIFIER or (',
  ),
  bad('rate({app="foo"} | json [5m] | json)'),
  bad('rate([5m])'),
  bad('rate(5, {app="foo"}[5m])'),
  bad('rate()'),
  bad('rate'),
  bad('rate {app="foo"}[5m]'),
  bad('count_over_time({app="foo"}[5m]'),
  bad('sum_over_time({app="foo"} | unwrap [5m])'),
  bad('sum_over_time({app="foo"} | unwrap seconds(x) [5m])'),
  bad('sum_over_time({app="foo"} | unwrap bytes(x [5m])'),
  bad('quantile_over_time(-0.5, {app="foo"} | unwrap x [5m])'),
  at(
    'quantile_over_time(0.5 {app="foo"} | unwrap x [5m])',
    24,
    'syntax error: unexpected {, expecting ,',
  ),
  bad('{app="foo"}[5m]'),
  bad('max_over_time({app="foo"} | unwrap x [5m]) by (a) by (b)'),
  bad('max_over_time({app="foo"} | unwrap x [5m]) by a'),
];

/** Vector aggregations. */
export const vectorAggs: CorpusEntry[] = [
  ok('sum(rate({ foo = "bar" }[5h]))'),
  ok('avg(count_over_time({ foo = "bar" }[5h])) by (bar,foo)'),
  ok('avg(count_over_time({ foo = "bar" }[5h])) by ()'),
  ok('max without (bar) (count_over_time({ foo = "bar" }[5h]))'),
  ok('max without () (count_over_time({ foo = "bar" }[5h]))'),
  at(
    'count without (rate({namespace="apps"}[15s]))',
    16,
    'syntax error: unexpected RATE, expecting IDENTIFIER or )',
  ),
  at(
    'sum by (a, rate(x)) (rate({a="b"}[1m]))',
    12,
    'syntax error: unexpected RATE, expecting IDENTIFIER',
  ),
  ok('topk(10,count_over_time({ foo = "bar" }[5h])) without (bar)'),
  ok('bottomk(30 ,sum(rate({ foo = "bar" }[5h])) by (foo))'),
  ok('max( sum(count_over_time({ foo = "bar" }[5h])) without (foo,bar) ) by (foo)'),
  ok('sum by (host) (rate({job="mysql"} |= "error" != "timeout" | json | duration > 10s [1m]))'),
  ok('topk(10,sum(rate({region="us-east1"}[5m])) by (name))'),
  ok('avg(rate(({job="nginx"} |= "GET")[10s])) by (region)'),
  ok('sum(count_over_time({job="mysql"}[5m])) by (level)'),
  ok(
    'sum by (org_id) (sum_over_time({cluster="ops-tools1",container="loki-dev"} |= "metrics.go" | logfmt | unwrap bytes_processed [1m]))',
  ),
  ok('count(count_over_time({app="foo"}[1m]))'),
  ok('stddev(rate({app="foo"}[1m]))'),
  ok('stdvar(rate({app="foo"}[1m])) by (a)'),
  ok('min(rate({app="foo"}[1m])) without (a)'),
  ok('sort(sum by (a) (rate({app="foo"}[1m])))'),
  ok('sort_desc(sum by (a) (rate({app="foo"}[1m])))'),
  ok('sort by () (rate({app="foo"}[1m]))'),
  ok('approx_topk(5, sum by (a) (rate({app="foo"}[1m])))'),
  ok('topk by (a) (5, rate({app="foo"}[1m]))'),
  ok('bottomk(1, rate({app="foo"}[1m])) by (a)'),
  ok('sum(1)'),
  ok('sum(vector(1))'),
  ok('sum(sum(rate({app="foo"}[1m])) by (a)) by (b)'),
  ok('SUM BY (a) (RATE({app="foo"}[1m]))'),
  ok('sum\n  by (a)\n  (rate({app="foo"}[1m]))'),
  ok('sum by(a)(rate({app="foo"}[1m]))'),
  ok('sum by (count, sum, rate) (rate({app="foo"}[1m]))'),
  ok('topk(10,sum(count_over_time(({foo="bar"} |= "baz")[5m])) by (app))'),
  semantic(
    'sum(3 ,count_over_time({ foo = "bar" }[5h]))',
    'unsupported parameter for operation sum(3,',
  ),
  semantic('topk(count_over_time({ foo = "bar" }[5h]))', 'parameter required for operation topk'),
  semantic('bottomk(1.2,count_over_time({ foo = "bar" }[5h]))', 'invalid parameter bottomk(1.2,'),
  semantic('topk(0, rate({app="foo"}[1m]))', 'invalid parameter (must be greater than 0) topk(0'),
  semantic(
    'approx_topk(5, rate({app="foo"}[1m])) by (a)',
    'grouping not allowed for approx_topk aggregation',
  ),
  semantic('approx_topk(rate({app="foo"}[1m]))', 'parameter required for operation approx_topk'),
  semantic('sort by (a) (rate({app="foo"}[1m]))', "sort and sort_desc doesn't allow grouping by "),
  semantic(
    'sort_desc(rate({app="foo"}[1m])) without (a)',
    "sort and sort_desc doesn't allow grouping by ",
  ),
  semantic('sum(rate({app=~".*"}[1m]))', EMPTY_COMPATIBLE),
  at('unk({ foo = "bar" }[5m])', 1, 'syntax error: unexpected IDENTIFIER'),
  atLine0('min({ foo = "bar" }[5m])', 20, 'syntax error: unexpected RANGE'),
  at('stddev({ foo = "bar" })', 23, 'syntax error: unexpected )'),
  at('bottomk(he,count_over_time({ foo = "bar" }[5h]))', 9, 'syntax error: unexpected IDENTIFIER'),
  bad('sum(rate({app="foo"}[1m])) by (a) by (b)'),
  bad('sum by (a) (rate({app="foo"}[1m])) by (b)'),
  bad('sum by (a)'),
  bad('sum()'),
  bad('sum(rate({app="foo"}[1m])'),
  bad('sum(rate({app="foo"}[1m])) by'),
  bad('sum(rate({app="foo"}[1m])) by (a,)'),
  bad('sum(rate({app="foo"}[1m])) by ("a")'),
  bad('sum(rate({app="foo"}[1m])) by (a.b)'),
  bad('sum({app="foo"})'),
  bad('topk(5)'),
  bad('topk(-1, rate({app="foo"}[1m]))'),
  bad('foo(rate({app="foo"}[1m]))'),
  bad('sum rate({app="foo"}[1m])'),
];

/** Binary operators, literals, vector(), label_replace. */
export const binaryOps: CorpusEntry[] = [
  ok(
    'sum(count_over_time({foo="bar"}[5m])) by (foo) / sum(count_over_time({foo="bar"}[5m])) by (foo) / sum(count_over_time({foo="bar"}[5m])) by (foo)',
  ),
  ok(
    'sum(count_over_time({foo="bar"}[5m])) by (foo) ^ sum(count_over_time({foo="bar"}[5m])) by (foo) / sum(count_over_time({foo="bar"}[5m])) by (foo)',
  ),
  ok(
    'sum(count_over_time({foo="bar"}[5m])) by (foo) + sum(count_over_time({foo="bar"}[5m])) by (foo) / sum(count_over_time({foo="bar"}[5m])) by (foo)',
  ),
  ok(
    'sum by (job) (count_over_time({namespace="tns"} |= "level=error"[5m]) / count_over_time({namespace="tns"}[5m]))',
  ),
  ok(
    'sum by (job) (count_over_time({namespace="tns"} |= "level=error"[5m]) / count_over_time({namespace="tns"}[5m])) * 100',
  ),
  ok('sum(count_over_time({foo="bar"}[5m])) by (foo) + 1 / 2'),
  ok('1 + -2 / 1'),
  ok('1 + 1 - -1'),
  ok('1 + 1 + 1'),
  ok('1 == 1'),
  ok('1 != 1'),
  ok('1 > 1'),
  ok('1 >= 1'),
  ok('1 < 1'),
  ok('1 <= 1'),
  ok('1 >= 1 > 1'),
  ok('1 > 1 < 1'),
  ok('1 > 1 > bool 1'),
  ok('2 ^ 3 ^ 2'),
  ok('(2 ^ 3) ^ 2'),
  ok('10 % 3'),
  ok('-1.5'),
  ok('+1'),
  ok('1e3'),
  ok('0.5'),
  ok('vector(1)'),
  ok('vector(0.5)'),
  ok('sum(rate({app="foo"}[5m])) or vector(0)'),
  ok('count_over_time({ foo ="bar" }[12m]) > count_over_time({ foo = "bar" }[12m])'),
  ok('count_over_time({ foo = "bar" }[12m]) > 1'),
  ok('count_over_time({ foo = "bar" }[12m]) or count_over_time({ foo = "bar" }[12m]) > 1'),
  ok('rate({app="foo"}[1m]) > bool 5'),
  ok('rate({app="foo"}[1m]) and rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) unless rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) / on(a) rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) / ignoring(a, b) rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) / on() rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) / on(a) group_left rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) / on(a) group_left(b, c) rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) / ignoring(a) group_right(b) rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) == bool on(a) rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) + on(a) group_left() rate({app="bar"}[1m])'),
  ok(
    'sum by (a) (rate({app="foo"}[1m])) / ignoring (b) group_left sum by (a, b) (rate({app="bar"}[1m]))',
  ),
  ok('(sum(rate({app="foo"}[1m])) + sum(rate({app="bar"}[1m]))) * 2'),
  ok('sum(rate({app="foo"}[1m])) * 100 / sum(rate({app="bar"}[1m]))'),
  ok('rate({app="foo"}[1m]) OR rate({app="bar"}[1m])'),
  ok('rate({app="foo"}[1m]) > 0.5 and rate({app="foo"}[1m]) < 10'),
  ok('label_replace(rate({job="api"} |= "err" [1m]), "foo", "$1", "service", "(.*):.*")'),
  ok(
    'avg(label_replace(count_over_time({ foo = "bar" }[5h]), "bar", "$1$2", "foo", "(.*).(.*)")) by (bar,foo)',
  ),
  ok(
    'label_replace(bytes_over_time(({foo="bar"} |= "baz" |~ "blip" != "flip" !~ "flap")[5m]), "buzz", "$2", "bar", "(.*):(.*)")',
  ),
  ok('label_replace(vector(1), "dst", "x", "", "")'),
  ok('label_replace(sum(rate({a="b"}[1m])) by (x), "y", "${1}", "x", "(?P<n>.*)")'),
  semantic(
    '{foo="bar"} + {foo="bar"}',
    'unexpected type for left leg of binary operation (+): *syntax.MatchersExpr',
  ),
  semantic(
    'sum(count_over_time({foo="bar"}[5m])) by (foo) - {foo="bar"}',
    'unexpected type for right leg of binary operation (-): *syntax.MatchersExpr',
  ),
  semantic(
    '{foo="bar"} / sum(count_over_time({foo="bar"}[5m])) by (foo)',
    'unexpected type for left leg of binary operation (/): *syntax.MatchersExpr',
  ),
  semantic(
    'sum(count_over_time({foo="bar"}[5m])) by (foo) or 1',
    'unexpected literal for right leg of logical/set binary operation (or): 1.000000',
  ),
  semantic(
    '1 unless sum(count_over_time({foo="bar"}[5m])) by (foo)',
    'unexpected literal for left leg of logical/set binary operation (unless): 1.000000',
  ),
  semantic(
    'sum(count_over_time({foo="bar"}[5m])) by (foo) + 1 or 1',
    'unexpected literal for right leg of logical/set binary operation (or): 1.000000',
  ),
  semantic(
    'count_over_time({ foo = "bar" }[12m]) > { foo = "bar" }',
    'unexpected type for right leg of binary operation (>): *syntax.MatchersExpr',
  ),
  semantic(
    '{foo="bar"} |= "x" > 1',
    'unexpected type for left leg of binary operation (>): *syntax.PipelineExpr',
  ),
  semantic('1 + count_over_time({app=~".*"}[5m])', EMPTY_COMPATIBLE),
  semantic(
    '1 + count_over_time({app=~".+"}[5m]) + count_over_time({app=~".*"}[5m])',
    EMPTY_COMPATIBLE,
  ),
  semantic(
    'label_replace(rate({ foo = "bar" }[5m]),"foo","$1","bar","^^^^x43\\\\q")',
    'invalid regex in label_replace: error parsing regexp: invalid escape sequence: `\\q`',
  ),
  at('bool 1 > 1 > bool 1', 1, 'syntax error: unexpected bool'),
  at('label_replace(rate({ foo = "bar" }[5m]),"")', 43, 'syntax error: unexpected ), expecting ,'),
  bad('1 +'),
  ok('+ 1'),
  ok('1 + + 1'),
  at('- rate({app="foo"}[1m])', 3, 'syntax error: unexpected RATE, expecting NUMBER'),
  bad('rate({app="foo"}[1m]) bool > 1'),
  bad('rate({app="foo"}[1m]) / group_left rate({app="bar"}[1m])'),
  bad('rate({app="foo"}[1m]) / on rate({app="bar"}[1m])'),
  bad('rate({app="foo"}[1m]) / on(a rate({app="bar"}[1m])'),
  bad('rate({app="foo"}[1m]) ** 2'),
  bad('rate({app="foo"}[1m]) = 2'),
  bad('rate({app="foo"}[1m]) =~ 2'),
  bad('(rate({app="foo"}[1m])'),
  bad('rate({app="foo"}[1m]))'),
  bad('()'),
  bad('vector()'),
  bad('vector(-1)'),
  bad('vector("1")'),
  bad('vector(rate({app="foo"}[1m]))'),
  bad('label_replace(rate({app="foo"}[1m]), "a", "b", "c")'),
  bad('label_replace({app="foo"}, "a", "b", "c", "d")'),
  bad('1 2'),
  bad('0x10'),
  bad(
    '1e400',
    'parse error : unable to parse literal as a float: strconv.ParseFloat: parsing "1e400": value out of range',
  ),
  bad('NaN'),
  bad('Inf'),
];

/** Every range function with and without unwrap, every vector function, with groupings. */
export function generated(): CorpusEntry[] {
  const out: CorpusEntry[] = [];
  const needsUnwrap = [
    'avg_over_time',
    'sum_over_time',
    'min_over_time',
    'max_over_time',
    'stddev_over_time',
    'stdvar_over_time',
    'first_over_time',
    'last_over_time',
    'rate_counter',
  ];
  const noUnwrap = ['count_over_time', 'bytes_over_time', 'bytes_rate'];
  const either = ['rate', 'absent_over_time'];
  const grouping = new Set([
    'avg_over_time',
    'min_over_time',
    'max_over_time',
    'stddev_over_time',
    'stdvar_over_time',
    'first_over_time',
    'last_over_time',
  ]);
  for (const op of needsUnwrap) {
    out.push(ok(`${op}({app="foo"} | logfmt | unwrap latency [5m])`));
    out.push(
      ok(`${op}({app="foo"} | json | unwrap duration_seconds(took) | __error__="" [1h] offset 1d)`),
    );
    out.push(
      semantic(`${op}({app="foo"} | logfmt [5m])`, `invalid aggregation ${op} without unwrap`),
    );
    const g = `${op}({app="foo"} | unwrap x [5m]) by (host)`;
    out.push(grouping.has(op) ? ok(g) : semantic(g, `grouping not allowed for ${op} aggregation`));
  }
  for (const op of noUnwrap) {
    out.push(ok(`${op}({app="foo"} |= "x" [5m])`));
    out.push(
      semantic(`${op}({app="foo"} | unwrap x [5m])`, `invalid aggregation ${op} with unwrap`),
    );
    out.push(
      semantic(`${op}({app="foo"}[5m]) by (a)`, `grouping not allowed for ${op} aggregation`),
    );
  }
  for (const op of either) {
    out.push(ok(`${op}({app="foo"}[5m])`));
    out.push(ok(`${op}({app="foo"} | unwrap x [5m])`));
  }
  for (const op of ['sum', 'avg', 'min', 'max', 'stddev', 'stdvar', 'count']) {
    out.push(ok(`${op} by (a) (rate({app="foo"}[1m]))`));
    out.push(ok(`${op}(rate({app="foo"}[1m])) without (a, b)`));
    out.push(
      semantic(`${op}(2, rate({app="foo"}[1m]))`, `unsupported parameter for operation ${op}(2,`),
    );
  }
  for (const op of ['topk', 'bottomk']) {
    out.push(ok(`${op}(3, rate({app="foo"}[1m]))`));
    out.push(ok(`${op} without (a) (3, rate({app="foo"}[1m]))`));
    out.push(semantic(`${op}(rate({app="foo"}[1m]))`, `parameter required for operation ${op}`));
  }
  for (const op of [...COMPARISON_BIN_OPS, ...ARITHMETIC_OPS, ...SET_OPS]) {
    out.push(ok(`rate({app="foo"}[1m]) ${op} rate({app="bar"}[1m])`));
  }
  return out;
}
