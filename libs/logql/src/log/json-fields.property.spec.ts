/**
 * The direct route for `| json` metric queries (`JsonFieldsExtraction`) gives, line for line,
 * the sample the pipeline gives: same value, same labels, same drops, on well-formed, damaged
 * and non-JSON lines, with stream labels and structured metadata that hold wanted names.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelsToRecord, parseLabels, type Labels } from '@logsvc/api';
import { jsonishLine } from '../testing/json-lines';
import { JsonParserStage } from './json-parser';
import { JsonFieldsExtraction, UNDECIDED } from './json-fields';
import {
  BytesLabelFilter,
  DurationLabelFilter,
  LabelFilterStage,
  NumericLabelFilter,
  StringLabelFilter,
  andLabelFilters,
  orLabelFilters,
  type LabelFilter,
} from './label-filter';
import { LineFilterStage, newLineFilter } from './line-filter';
import { newParserHints } from './parser-hints';
import { LineSampleExtractor, type LineSampleKind } from './sample-extractor';
import type { Stage } from './pipeline';

const FILTERS: readonly { names: string[]; make: () => LabelFilter }[] = [
  { names: ['latency_ms'], make: () => new NumericLabelFilter('latency_ms', '>', 500) },
  { names: ['latency_ms'], make: () => new NumericLabelFilter('latency_ms', '<=', 1.5) },
  { names: ['latency_ms'], make: () => new NumericLabelFilter('latency_ms', '==', 123.45) },
  { names: ['level'], make: () => new StringLabelFilter('level', '=', 'info') },
  { names: ['level'], make: () => new StringLabelFilter('level', '!~', 'err.*') },
  { names: ['a'], make: () => new DurationLabelFilter('a', '>', 1e9) },
  { names: ['b'], make: () => new BytesLabelFilter('b', '<', 2000) },
  { names: ['app'], make: () => new StringLabelFilter('app', '=', 'api') },
  {
    names: ['latency_ms', 'level'],
    make: () =>
      orLabelFilters(
        new NumericLabelFilter('latency_ms', '>=', 12),
        new StringLabelFilter('level', '=', 'error'),
      ),
  },
  {
    names: ['level', 'a'],
    make: () =>
      andLabelFilters(
        new StringLabelFilter('level', '!=', ''),
        new NumericLabelFilter('a', '<', 0),
      ),
  },
];

const query = fc.record({
  lineFilter: fc.boolean(),
  filters: fc.subarray([...FILTERS.keys()], { maxLength: 2 }),
  groups: fc.constantFrom(['level'], ['latency_ms'], ['level', 'app'], ['a', 'b'], [], ['app']),
  kind: fc.constantFrom<LineSampleKind>('count', 'bytes'),
  stream: fc.constantFrom('{app="api"}', '{level="warn", app="x"}', '{}', '{latency_ms="9"}'),
  metadata: fc.constantFrom<Record<string, string>>(
    {},
    { detected_level: 'info' },
    { level: 'md' },
    { 'latency.ms': '7' },
    { __error__: 'E' },
  ),
});

type Query = typeof query extends fc.Arbitrary<infer T> ? T : never;

function extractor(q: Query, direct: boolean): LineSampleExtractor {
  const stages: Stage[] = [];
  if (q.lineFilter)
    stages.push(new LineFilterStage([newLineFilter('!=', [{ type: 'text', value: 'zz' }])]));
  stages.push(new JsonParserStage());
  const stageLabels: string[] = [];
  for (const i of q.filters) {
    stages.push(new LabelFilterStage(FILTERS[i].make()));
    stageLabels.push(...FILTERS[i].names);
  }
  const noLabels = q.groups.length === 0;
  const hints = newParserHints({
    stageLabels,
    groups: q.groups,
    without: false,
    noLabels,
    preserveError: false,
  });
  const grouping = { labels: q.groups, without: false, ...(noLabels ? { noLabels: true } : {}) };
  return new LineSampleExtractor(stages, q.kind, grouping, false, hints, direct);
}

function samples(q: Query, lines: readonly Buffer[], direct: boolean) {
  const sm: Labels = Object.entries(q.metadata).map(([name, value]) => ({ name, value }));
  const sx = extractor(q, direct).forStream(parseLabels(q.stream));
  return lines.map((line) => {
    const s = sx.process(0n, line, sm);
    return s === null
      ? null
      : { value: s.value, labels: labelsToRecord(s.labels.labels), key: s.labels.key };
  });
}

/** `samples` through `processRange`, the lines packed in one buffer between stray bytes. */
function samplesInPlace(q: Query, lines: readonly Buffer[]) {
  const sm: Labels = Object.entries(q.metadata).map(([name, value]) => ({ name, value }));
  const sx = extractor(q, true).forStream(parseLabels(q.stream));
  const stray = Buffer.from('}"\\,0');
  const block = Buffer.concat([stray, ...lines.flatMap((l) => [l, stray])]);
  let at = stray.length;
  return lines.map((line) => {
    const start = at;
    at += line.length + stray.length;
    const s = sx.processRange!(0n, block, start, start + line.length, sm);
    return s === null
      ? null
      : { value: s.value, labels: labelsToRecord(s.labels.labels), key: s.labels.key };
  });
}

describe('the direct route for | json metric queries', () => {
  it('gives the same samples reading lines in place, within a larger buffer', () => {
    fc.assert(
      fc.property(query, fc.array(jsonishLine, { minLength: 1, maxLength: 6 }), (q, lines) => {
        const sx = extractor(q, true).forStream(parseLabels(q.stream));
        if (sx.processRange === undefined) return;
        expect(samplesInPlace(q, lines)).toEqual(samples(q, lines, false));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the pipeline’s sample for every line', () => {
    fc.assert(
      fc.property(query, fc.array(jsonishLine, { minLength: 1, maxLength: 6 }), (q, lines) => {
        expect(samples(q, lines, true)).toEqual(samples(q, lines, false));
      }),
      { numRuns: 3000 },
    );
  });

  it('decides well-formed lines itself, numbers compared without the pipeline', () => {
    const hints = newParserHints({
      stageLabels: ['latency_ms'],
      groups: ['level'],
      without: false,
      noLabels: false,
      preserveError: false,
    });
    const route = JsonFieldsExtraction.create(
      [new JsonParserStage(), new LabelFilterStage(new NumericLabelFilter('latency_ms', '>', 500))],
      { names: ['level'], without: false, noLabels: false },
      hints,
      false,
    );
    const stream = route!.forStream(parseLabels('{app="api"}'));
    const run = (line: string) => {
      const r = stream.run(Buffer.from(line), [{ name: 'detected_level', value: 'info' }]);
      return r === null || r === UNDECIDED ? r : labelsToRecord(r.labels);
    };
    expect(run('{"ts":"x","level":"warn","latency_ms":512.25,"msg":"slow"}')).toEqual({
      level: 'warn',
    });
    expect(run('{"level":"warn","latency_ms":499.5}')).toBeNull();
    expect(run('{"latency_ms":"900","level":"info"}')).toEqual({ level: 'info' });
    expect(run('{"latency_ms":900}')).toEqual({});
    expect(run('10.0.0.1 - - "GET /" 200')).toBeNull();
    // A parse error on a kept line, and a key that flattens into a wanted name: the pipeline.
    expect(run('{"latency_ms":900,"level":')).toBe(UNDECIDED);
    expect(run('{"latency":{"ms":900},"level":"x"}')).toBe(UNDECIDED);
    // Extraction stops once every wanted label is read, as Loki's does: the damage after is unseen.
    expect(run('{"latency_ms":900,"level":"x",')).toEqual({ level: 'x' });
  });
});
