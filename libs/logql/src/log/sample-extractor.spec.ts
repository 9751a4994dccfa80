import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { labelsFromRecord, labelsToRecord, parseLabels } from '@logsvc/api';
import { NumericLabelFilter, StringLabelFilter } from './label-filter';
import { LineFilterStage, newLineFilter } from './line-filter';
import { LogfmtParserStage } from './logfmt';
import {
  LabelSampleExtractor,
  LineSampleExtractor,
  type SampleExtractor,
  type UnwrapConversion,
} from './sample-extractor';

function sample(extractor: SampleExtractor, line: string, stream = '{app="api"}') {
  const s = extractor.forStream(parseLabels(stream)).process(0n, Buffer.from(line));
  return s === null ? null : { value: s.value, labels: labelsToRecord(s.labels.labels) };
}

describe('LineSampleExtractor', () => {
  it('counts kept entries as 1 and keeps their labels', () => {
    const sut = new LineSampleExtractor(
      [new LineFilterStage([newLineFilter('|=', [{ type: 'text', value: 'err' }])])],
      'count',
    );
    expect(sample(sut, 'an error')).toEqual({ value: 1, labels: { app: 'api' } });
    expect(sample(sut, 'fine')).toBeNull();
  });

  it('measures bytes of the (final) line', () => {
    expect(sample(new LineSampleExtractor([], 'bytes'), 'héllo')?.value).toBe(6);
  });

  it('includes structured metadata and applies a by() grouping', () => {
    const sut = new LineSampleExtractor([new LogfmtParserStage()], 'count', {
      labels: ['level'],
      without: false,
    });
    const s = sut
      .forStream(parseLabels('{app="api"}'))
      .process(0n, Buffer.from('level=warn x=1'), labelsFromRecord({ t: '1' }));
    expect(labelsToRecord(s!.labels.labels)).toEqual({ level: 'warn' });
  });
});

describe('LabelSampleExtractor (unwrap)', () => {
  const unwrap = (label: string, conv: UnwrapConversion, post = [] as StringLabelFilter[]) =>
    new LabelSampleExtractor([new LogfmtParserStage()], label, conv, post);

  it.each([
    ['', 'latency=0.25 level=info', 0.25],
    ['duration', 'latency=250ms level=info', 0.25],
    ['duration_seconds', 'latency=1m30s level=info', 90],
    ['bytes', 'latency=2.5KiB level=info', 2560],
    ['bytes', 'latency=20MB level=info', 20e6],
  ] as [UnwrapConversion, string, number][])(
    'unwrap %s(latency) on %j = %d, dropping the label',
    (conv, line, want) => {
      expect(sample(unwrap('latency', conv), line)).toEqual({
        value: want,
        labels: { app: 'api', level: 'info' },
      });
    },
  );

  it('skips entries whose label is missing or empty', () => {
    expect(sample(unwrap('latency', ''), 'level=info')).toBeNull();
    expect(
      new LabelSampleExtractor([new LogfmtParserStage({ keepEmpty: true })], 'latency', '')
        .forStream([])
        .process(0n, Buffer.from('latency=')),
    ).toBeNull();
  });

  it.each([
    ['', 'latency=fast', 'strconv.ParseFloat: parsing "fast": invalid syntax'],
    ['duration', 'latency=12', 'time: missing unit in duration "12"'],
    ['bytes', 'latency=12QB', 'unhandled size name: qb'],
  ] as [UnwrapConversion, string, string][])(
    'a failed %s conversion keeps the sample with SampleExtractionErr',
    (conv, line, details) => {
      expect(sample(unwrap('latency', conv), line)).toEqual({
        value: 0,
        labels: {
          app: 'api',
          latency: line.split('=')[1],
          __error__: 'SampleExtractionErr',
          __error_details__: details,
        },
      });
    },
  );

  it('runs post-unwrap label filters, which can drop errors', () => {
    const sut = unwrap('latency', '', [new StringLabelFilter('__error__', '=', '')]);
    expect(sample(sut, 'latency=fast')).toBeNull();
    expect(sample(sut, 'latency=3')?.value).toBe(3);
    const numeric = new LabelSampleExtractor([new LogfmtParserStage()], 'latency', '', [
      new NumericLabelFilter('status', '>=', 500),
    ]);
    expect(sample(numeric, 'latency=3 status=200')).toBeNull();
    expect(sample(numeric, 'latency=3 status=503')?.labels).toEqual({ app: 'api', status: '503' });
  });

  it('adds the unwrapped label to a without() grouping and honours by()', () => {
    const without = new LabelSampleExtractor([new LogfmtParserStage()], 'latency', '', [], {
      labels: ['level'],
      without: true,
    });
    expect(sample(without, 'latency=1 level=info x=y')?.labels).toEqual({ app: 'api', x: 'y' });
    const by = new LabelSampleExtractor([new LogfmtParserStage()], 'latency', '', [], {
      labels: ['level'],
      without: false,
    });
    expect(sample(by, 'latency=1 level=info x=y')?.labels).toEqual({ level: 'info' });
  });
});

describe('LineSampleExtractor without stages', () => {
  // A stage that changes nothing makes the extractor take its general path: the answers must
  // be the same as the stage-free shortcut's.
  const identity = { process: (_ts: bigint, line: Buffer) => line };
  const names = ['level', 'app', 'pod', 'trace'];
  const pairs = fc.array(
    fc.record({ name: fc.constantFrom(...names), value: fc.constantFrom('a', 'b', '') }),
    { maxLength: 3 },
  );
  const groupings = fc.oneof(
    fc.constant(undefined),
    fc.record({
      labels: fc.uniqueArray(fc.constantFrom(...names), { maxLength: 3 }),
      without: fc.boolean(),
    }),
  );

  it('gives the labels and values of the general path, whatever the metadata', () => {
    fc.assert(
      fc.property(
        groupings,
        fc.constantFrom<'count' | 'bytes'>('count', 'bytes'),
        fc.array(fc.tuple(fc.string({ maxLength: 8 }), pairs), { minLength: 1, maxLength: 12 }),
        (grouping, kind, entries) => {
          const stream = parseLabels('{app="api", level="info"}');
          const fast = new LineSampleExtractor([], kind, grouping).forStream(stream);
          const slow = new LineSampleExtractor([identity], kind, grouping).forStream(stream);
          for (const [line, sm] of entries) {
            const metadata = labelsFromRecord(
              Object.fromEntries(sm.filter((p) => p.value !== '').map((p) => [p.name, p.value])),
            );
            const a = fast.process(1n, Buffer.from(line), metadata);
            const b = slow.process(1n, Buffer.from(line), metadata);
            expect(a?.value).toBe(b?.value);
            expect(a?.labels.toString()).toBe(b?.labels.toString());
          }
        },
      ),
    );
  });
});
