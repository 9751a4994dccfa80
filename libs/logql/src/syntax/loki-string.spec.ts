import { describe, expect, it } from 'vitest';
import { lokiExprString } from './loki-string';
import { parseExpr } from './parser';

// Expected texts follow Loki 3.4.6's `String()` methods (pkg/logql/syntax/ast.go,
// pkg/logql/log/label_filter.go), as its rules API lists a rule's query.
const CASES: ReadonlyArray<[string, string]> = [
  ['sum by (app) (rate({app="api"}[5m])) > 2', '(sum by (app)(rate({app="api"}[5m])) > 2)'],
  [
    'sum(count_over_time({app="api"} |= "error" [5m])) > 10',
    '(sum(count_over_time({app="api"} |= "error"[5m])) > 10)',
  ],
  [
    'topk(3, sum by (app, env) (bytes_rate({env=~"p.*"}[1m])))',
    'topk(3,sum by (app,env)(bytes_rate({env=~"p.*"}[1m])))',
  ],
  [
    'max_over_time({a="b"} | json | status >= 500 and level="error" | unwrap n [1h]) by (x)',
    'max_over_time({a="b"} | json | ( status>=500 , level="error" ) | unwrap n[1h]) by (x)',
  ],
  [
    'quantile_over_time(0.99, {a="b"} | logfmt | unwrap duration(d) | d > 1s [5m] offset 1h)',
    'quantile_over_time(0.99,{a="b"} | logfmt | unwrap duration(d) | d>1s[5m] offset 1h0m0s)',
  ],
  ['vector(1) + (1 + 2)', '(vector(1.000000) + 3)'],
  ['1 + 2', '3'],
  // Go's math.Pow(1, NaN) is 1 (JavaScript's Math.pow gives NaN).
  ['vector(1) * (1 ^ (0 / 0))', '(vector(1.000000) * 1)'],
  ['a_metric_like_rate:x', ''],
  [
    'label_replace(rate({a="b"}[1m]), "dst", "$1", "src", "(.*)")',
    'label_replace(rate({a="b"}[1m]),"dst","$1","src","(.*)")',
  ],
  [
    'rate({a="b"}[1m]) / on (a) group_left (b) rate({c="d"}[1m])',
    '(rate({a="b"}[1m]) / on (a) group_left (b) rate({c="d"}[1m]))',
  ],
  [
    'sum without (a) (rate({a="b"}[24h])) > bool 0.5',
    '(sum without (a)(rate({a="b"}[1d])) > bool 0.5)',
  ],
];

describe('lokiExprString', () => {
  it.each(CASES.filter(([, want]) => want !== ''))('prints %s as Loki does', (query, want) => {
    expect(lokiExprString(parseExpr(query))).toBe(want);
  });
});
