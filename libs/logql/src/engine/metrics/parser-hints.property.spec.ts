/**
 * Parser hints and grouping push-down change how labels are extracted, never the answer: on
 * random lines and random metric queries, evaluation with hints gives what evaluation without
 * them gives. The allowed differences are Loki's: with hints a parser that has nothing left to
 * extract is skipped, so a query that fails unhinted on a parser error may succeed hinted (or
 * fail on another error), and a sample with a preserved error carries the labels extracted.
 * (Logfmt lines hold each key once: see `uniquePairs`.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairsJsonLine } from '../../testing/parser-inputs';
import { labelsToString } from '@logsvc/api';
import type { MetricExpr } from '../../syntax/ast';
import { parseExpr } from '../../syntax/parser';
import { compilePipeline } from '../compile';
import { MemorySource } from '../sources/memory-source';
import { newQueryStats } from '../stats';
import { evaluateWithExtractor } from './evaluate';
import { createSampleExtractorBuilder } from './extractor-builder';
import type { SampleExtractorBuilder } from './context';

const hinted = createSampleExtractorBuilder(compilePipeline);
const unhinted = createSampleExtractorBuilder(compilePipeline, { parserHints: false });

/** Keys include the stream labels' names (`app`, `level`), so `_extracted` renaming happens. */
const KEYS = ['level', 'app', 'status', 'path', 'took', 'a', 'b'] as const;
const VALUES = ['info', 'error', '200', '500', '42', '1.5', '250ms', '2s', 'x y', ''] as const;

const key = fc.constantFrom(...KEYS);
const value = fc.constantFrom(...VALUES);
const pairs = fc.array(fc.tuple(key, value), { maxLength: 6 });

// Each key once: a key repeated in a logfmt line keeps its last value unhinted, and its first
// under hints that stop reading once every wanted label is there (Loki 3.4 does the same).
const uniquePairs = fc.uniqueArray(fc.tuple(key, value), { maxLength: 6, selector: ([k]) => k });
const logfmtLine = uniquePairs.map((ps) =>
  ps.map(([k, v]) => (v.includes(' ') ? `${k}="${v}"` : `${k}=${v}`)).join(' '),
);
const jsonLine = pairsJsonLine(pairs, key);
const line = fc.oneof(logfmtLine, jsonLine, fc.constantFrom('plain text', 'status=500 a==b'));

const parser = fc.constantFrom(
  '| json',
  '| logfmt',
  '| logfmt --strict',
  '| regexp "status=(?P<status>\\\\d+)"',
  '| pattern "<_> path=<path> <_>"',
  '| json s="status", a',
  '| logfmt | json',
);
const groupName = fc.constantFrom(...KEYS, 'level_extracted', 'app_extracted', 's', '__error__');
const filter = fc.constantFrom(
  '',
  '| status="500"',
  '| status >= 300',
  '| took > 1s',
  '| a!="" or b="x y"',
  '| __error__=""',
  '| label_format p="{{.path}}/{{.a}}"',
  '| label_format q=status',
  '| drop status',
);
const rangeOp = fc.constantFrom(
  'count_over_time',
  'rate',
  'bytes_over_time',
  'sum_over_time',
  'max_over_time',
);

const query = fc
  .record({
    parser,
    filter,
    rangeOp,
    unwrap: fc.constantFrom('status', 'took', 'duration(took)'),
    groups: fc.uniqueArray(groupName, { maxLength: 3 }),
    outer: fc.constantFrom('sum by', 'sum without', 'sum', 'count by', 'none'),
  })
  .map(({ parser, filter, rangeOp, unwrap, groups, outer }) => {
    const unwrapped = rangeOp === 'sum_over_time' || rangeOp === 'max_over_time';
    const inner =
      `${rangeOp}({app=~".+"} ${parser} ${filter}` +
      `${unwrapped ? ` | unwrap ${unwrap}` : ''} [1m])`;
    const by = `(${groups.join(', ')})`;
    switch (outer) {
      case 'none':
        return rangeOp === 'max_over_time' ? `${inner} by ${by}` : inner;
      case 'sum':
        return `sum(${inner})`;
      default:
        return `${outer} ${by} (${inner})`;
    }
  });

const NS = 1_000_000_000n;

async function evaluate(
  q: string,
  lines: readonly string[],
  builder: SampleExtractorBuilder,
): Promise<string> {
  const source = new MemorySource([
    {
      labels: '{app="web", level="warn"}',
      entries: lines.map((l, i) => ({ timestampNs: BigInt(i + 1) * NS, line: Buffer.from(l) })),
    },
    {
      labels: '{app="api"}',
      entries: lines.map((l, i) => ({
        timestampNs: BigInt(i + 1) * NS,
        line: Buffer.from(l),
        structuredMetadata: [{ name: 'path', value: '/meta' }],
      })),
    },
  ]);
  try {
    const result = await evaluateWithExtractor(
      parseExpr(q) as MetricExpr,
      { tenant: 't', startNs: 60n * NS, endNs: 60n * NS, stepNs: 0n, kind: 'instant' },
      source,
      newQueryStats(),
      builder,
    );
    if (result.type !== 'vector') return JSON.stringify(result);
    // A sample with an error keeps every label its entry has, and hints extract fewer: such
    // series (kept by a grouping on `__error__`) differ by design, as in Loki.
    return result.samples
      .filter((s) => !s.labels.some((l) => l.name === '__error__'))
      .map((s) => `${labelsToString(s.labels)} ${s.value}`)
      .sort()
      .join('\n');
  } catch (err) {
    return `error ${(err as Error).message}`;
  }
}

describe('parser hints', () => {
  it('give the answers of unhinted evaluation (errors aside, which hints may skip)', async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.array(line, { minLength: 1, maxLength: 8 }), async (q, lines) => {
        const want = await evaluate(q, lines, unhinted);
        const got = await evaluate(q, lines, hinted);
        // Unhinted failed on an error in the data: hinted may have skipped the parser that
        // set it (and then fail on another error, or not at all). Any other answer is equal.
        if (want.startsWith('error pipeline error')) return;
        expect(got).toBe(want);
      }),
      { numRuns: 400 },
    );
  });
});
