/**
 * Queries a careless or hostile user can write: each one answers or fails with a 4xx-kind
 * error, within bounded time, and never with anything the server would turn into a 500.
 */
import { HTTP_STATUS_OF_KIND, LogsvcError } from '@logsvc/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repeat, sec, TestSource } from './metrics/test-kit';
import { runQuery } from './query';

const source = new TestSource()
  .add('{app="api"}', repeat('level=info msg="hello world" n=5 latency=250ms', 0, 1, 50))
  .add('{app="api", pod="b"}', repeat('{"level":"warn","msg":"hi","n":"x"}', 0.5, 1, 50));

/** The error classes a request may end in: a LogsvcError whose kind is a 4xx. */
function expectClientError(err: unknown, query: string): void {
  if (!(err instanceof LogsvcError)) {
    throw new Error(
      `${query}\n  threw ${String(err)} (${(err as Error)?.name}), not a LogsvcError`,
    );
  }
  const status = HTTP_STATUS_OF_KIND[err.kind];
  if (status < 400 || status >= 500) throw new Error(`${query}\n  gave ${status} ${err.message}`);
}

async function answersWithin(query: string, ms: number, kind: 'instant' | 'range'): Promise<void> {
  const started = performance.now();
  try {
    await runQuery({
      query,
      kind,
      startNs: 0n,
      endNs: sec(60),
      stepMs: 10_000,
      limit: 20,
      direction: 'backward',
      tenants: 't',
      source,
    });
  } catch (err) {
    expectClientError(err, query);
  }
  expect(performance.now() - started, query).toBeLessThan(ms);
}

const count = fc.oneof(
  fc.integer({ min: -3, max: 50 }),
  fc.constantFrom(999, 1_000, 1_001, 99_999, 100_001, 1_000_000, 1_048_577, 100_000_000),
  fc.constantFrom(999_999_999, 2 ** 31, 2 ** 53),
);

const templatePiece = fc.oneof(
  count.map((n) => `{{ repeat ${n} "ab" }}`),
  count.map((n) => `{{ range ${n} }}x{{ end }}`),
  count.map((n) => `{{ printf "%0${n}d" 1 }}`),
  count.map((n) => `{{ printf "%.${n}f" 1.5 }}`),
  count.map((n) => `{{ printf "%*d" ${n} 1 }}`),
  count.map((n) => `{{ alignLeft ${n} .msg }}`),
  count.map((n) => `{{ alignRight ${n} .msg }}`),
  count.map((n) => `{{ indent ${n} __line__ }}`),
  count.map((n) => `{{ trunc ${n} __line__ }}`),
  count.map((n) => `{{ substr 0 ${n} __line__ }}`),
  fc
    .integer({ min: 1, max: 60 })
    .map((n) => `{{ $x := "ab" }}{{ range ${n} }}{{ $x = printf "%s%s" $x $x }}{{ end }}{{ $x }}`),
  fc.integer({ min: 1, max: 6_000 }).map((n) => `{{ ${'('.repeat(n)}1${')'.repeat(n)} }}`),
  fc
    .integer({ min: 1, max: 3_000 })
    .map((n) => `${'{{ if 1 }}'.repeat(n)}x${'{{ end }}'.repeat(n)}`),
  fc
    .integer({ min: 1, max: 8_000 })
    .map((n) => `{{ fromJson "${'['.repeat(n)}${']'.repeat(n)}" }}`),
  fc.constant('{{ define "a" }}{{ template "a" . }}{{ end }}{{ template "a" . }}'),
  fc.constant('{{ .msg | upper | lower | title }}'),
  fc.constant('{{ __timestamp__ | date "2006-01-02" }}'),
  fc.constant('{{ index . "missing" }}'),
);

const templateQuery = fc
  .tuple(
    fc.array(templatePiece, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('line_format', 'label_format out='),
    fc.constantFrom('log', 'count', 'bytes'),
  )
  .map(([pieces, stage, shape]) => {
    const log = `{app="api"} | logfmt | ${stage}\`${pieces.join('')}\``;
    if (shape === 'log') return log;
    return `sum by (out) (${shape === 'count' ? 'count_over_time' : 'bytes_over_time'}(${log} [30s]))`;
  });

const logqlToken = fc.constantFrom(
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ',',
  '|',
  '|=',
  '!=',
  '|~',
  '!~',
  '|>',
  '=~',
  '=',
  '!=',
  '>',
  '<=',
  '"a"',
  '"(("',
  '"[z-a]"',
  '"\\\\"',
  '`.*`',
  '"(?P<x>.)"',
  'app',
  '"api"',
  'json',
  'logfmt',
  'regexp',
  'pattern',
  '"<_> <x>"',
  'line_format',
  'label_format',
  'unwrap',
  'n',
  'sum',
  'by',
  'without',
  'rate',
  'count_over_time',
  'quantile_over_time',
  '0.9',
  'topk',
  '1e308',
  '-',
  '[1m]',
  '[0s]',
  'offset',
  '5m',
  'or',
  'and',
  'unless',
  'on',
  'bool',
  '==',
  '+',
  '/',
  '^',
  'label_replace',
  'vector',
  'ip',
  'ip("10.0.0.0/8")',
  'decolorize',
  'drop',
  'keep',
  '__error__',
  'sort',
  'absent_over_time',
  'max_over_time',
  '"{{ .n }}"',
  '${',
  '#',
  '\n',
);

const wellFormedPrefix = fc.constantFrom('', '{app="api"} ', 'sum(rate({app="api"} ', 'topk(');

describe('hostile queries', () => {
  it('templates answer or fail with a 4xx within seconds (not minutes), whatever their sizes', async () => {
    await fc.assert(
      fc.asyncProperty(templateQuery, fc.constantFrom('instant', 'range'), (q, kind) =>
        answersWithin(q, 10_000, kind as 'instant' | 'range'),
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('token soup answers or fails with a 4xx, never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(
        wellFormedPrefix,
        fc.array(logqlToken, { minLength: 1, maxLength: 25 }),
        fc.constantFrom('instant', 'range'),
        (prefix, tokens, kind) =>
          answersWithin(prefix + tokens.join(' '), 10_000, kind as 'instant' | 'range'),
      ),
      { numRuns: 1_500 },
    );
  }, 120_000);
});
