import { describe, expect, it } from 'vitest';
import type { MetricExpr } from '../../syntax/ast';
import { parseExpr } from '../../syntax/parser';
import { printExpr } from '../../syntax/printer';
import { optimizeSampleExpr } from './optimize';

const optimized = (q: string): string => printExpr(optimizeSampleExpr(parseExpr(q) as MetricExpr));

describe('optimizeSampleExpr (Loki optimize_test.go cases and more)', () => {
  it.each([
    // nothing to remove
    'sum by (name) (rate({region="us-east1"}[5m]))',
    'sum by (name) (bytes_over_time({region="us-east1"} | line_format "something else" [5m]))',
    'sum(bytes_rate({region="us-east1"} | line_format "x" [5m]))',
    'sum by (name) (rate({region="us-east1"} | json | line_format "something else" |= "something" [5m]))',
    'sum by (name) (rate({region="us-east1"} | json | line_format "something else" | logfmt [5m]))',
    'sum by (name) (count_over_time({region="us-east1"} | line_format "{{ .message }}" | json foo="bar" [5m]))',
    'count_over_time({a="b"} | line_format "x" | regexp "(?P<y>.)" [5m])',
    'count_over_time({a="b"} | line_format "x" | pattern "<y>" [5m])',
    'count_over_time({a="b"} | line_format "x" | unpack [5m])',
    'count_over_time({a="b"} | line_format "x" | logfmt y [5m])',
  ])('keeps %s', (q) => {
    expect(optimized(q)).toBe(printExpr(parseExpr(q)));
  });

  it.each([
    [
      'sum by (name) (rate({region="us-east1"} | line_format "something else" [5m]))',
      'sum by (name) (rate({region="us-east1"}[5m]))',
    ],
    [
      'sum by (name) (rate({region="us-east1"} | json | line_format "something else" | unwrap foo [5m]))',
      'sum by (name) (rate({region="us-east1"} | json | unwrap foo [5m]))',
    ],
    [
      'quantile_over_time(1, {region="us-east1"} | json | line_format "something else" | unwrap foo [5m])',
      'quantile_over_time(1, {region="us-east1"} | json | unwrap foo [5m])',
    ],
    [
      'sum by (name) (count_over_time({region="us-east1"} | json | line_format "something else" | label_format foo=bar | line_format "boo" [5m]))',
      'sum by (name) (count_over_time({region="us-east1"} | json | label_format foo=bar [5m]))',
    ],
    [
      'count_over_time({a="b"} | line_format "x" | logfmt | line_format "y" | decolorize | drop c | keep d | e="f" [5m])',
      'count_over_time({a="b"} | line_format "x" | logfmt | decolorize | drop c | keep d | e="f" [5m])',
    ],
    [
      'label_replace(rate({a="b"} | line_format "x" [1m]), "d", "$1", "a", "(.*)") / on (a) sum(count_over_time({a="c"} | line_format "y" [1m])) + 1',
      'label_replace(rate({a="b"}[1m]), "d", "$1", "a", "(.*)") / on (a) sum(count_over_time({a="c"}[1m])) + 1',
    ],
  ])('%s becomes %s', (q, want) => {
    expect(optimized(q)).toBe(printExpr(parseExpr(want)));
  });
});
