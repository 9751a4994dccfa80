import { describe, expect, it } from 'vitest';
import { labelsFromRecord, parseLabels } from '@logsvc/api';
import { LabelCategory, LabelsBuilder, normalizeMetadataName } from './labels-builder';

const builder = (stream = '{app="api", env="prod"}') => new LabelsBuilder(parseLabels(stream));

describe('LabelsBuilder', () => {
  it('returns the same cached result while nothing changes', () => {
    const sut = builder();
    const first = sut.labels();
    sut.reset();
    expect(sut.labels()).toBe(first);
    expect(first.toString()).toBe('{app="api", env="prod"}');
  });

  it('shares one result object between entries that produce the same labels', () => {
    const sut = builder();
    sut.set(LabelCategory.Parsed, 'level', 'info');
    const a = sut.labels();
    sut.reset();
    sut.set(LabelCategory.Parsed, 'level', 'info');
    expect(sut.labels()).toBe(a);
    sut.reset();
    sut.set(LabelCategory.Parsed, 'level', 'warn');
    expect(sut.labels()).not.toBe(a);
  });

  const precedence: { name: string; ops: [LabelCategory, string][]; want: string; cat: string }[] =
    [
      {
        name: 'parsed overrides stream',
        ops: [[LabelCategory.Parsed, 'p']],
        want: 'p',
        cat: 'parsed',
      },
      {
        name: 'metadata overrides stream',
        ops: [[LabelCategory.StructuredMetadata, 'm']],
        want: 'm',
        cat: 'structuredMetadata',
      },
      {
        name: 'metadata does not override parsed',
        ops: [
          [LabelCategory.Parsed, 'p'],
          [LabelCategory.StructuredMetadata, 'm'],
        ],
        want: 'p',
        cat: 'parsed',
      },
      {
        name: 'parsed overrides metadata',
        ops: [
          [LabelCategory.StructuredMetadata, 'm'],
          [LabelCategory.Parsed, 'p'],
        ],
        want: 'p',
        cat: 'parsed',
      },
      {
        name: 'stream does not override metadata',
        ops: [
          [LabelCategory.StructuredMetadata, 'm'],
          [LabelCategory.Stream, 's'],
        ],
        want: 'm',
        cat: 'structuredMetadata',
      },
    ];
  it.each(precedence)('category precedence: $name', ({ ops, want, cat }) => {
    const sut = builder();
    for (const [c, v] of ops) sut.set(c, 'app', v);
    expect(sut.get('app')).toBe(want);
    const r = sut.labels();
    expect(r.labels.filter((p) => p.name === 'app')).toEqual([{ name: 'app', value: want }]);
    expect(r[cat as 'parsed']).toContainEqual({ name: 'app', value: want });
  });

  it('deletes stream, metadata and parsed labels', () => {
    const sut = builder();
    sut.addStructuredMetadata(labelsFromRecord({ trace: 't1' }));
    sut.set(LabelCategory.Parsed, 'level', 'info');
    sut.del('env');
    sut.del('trace');
    sut.del('level');
    expect(sut.has('env')).toBe(false);
    expect(sut.labels().toString()).toBe('{app="api"}');
  });

  it('keeps error labels apart and reports them as parsed labels', () => {
    const sut = builder();
    sut.setErr('JSONParserErr');
    sut.setErrorDetails('bad');
    expect(sut.get('__error__')).toBe('JSONParserErr');
    const r = sut.labels();
    expect(r.toString()).toBe(
      '{__error__="JSONParserErr", __error_details__="bad", app="api", env="prod"}',
    );
    expect(r.parsed.map((p) => p.name)).toEqual(['__error__', '__error_details__']);
    sut.del('__error__');
    expect(sut.hasErr()).toBe(false);
  });

  it('adds structured metadata with Loki name rules', () => {
    const sut = builder();
    sut.addStructuredMetadata(
      labelsFromRecord({ app: 'x', 'trace.id': 't', '1st': 'y', __error__: 'E' }),
    );
    const r = sut.labels();
    expect(r.structuredMetadata).toEqual([
      { name: 'app_extracted', value: 'x' },
      { name: 'key_1st', value: 'y' },
      { name: 'trace_id', value: 't' },
    ]);
    expect(sut.getErr()).toBe('E');
  });

  it('lets the first extraction of a key win, in the same stage or a later one', () => {
    const sut = builder();
    expect(sut.shouldExtract('level')).toBe(true);
    sut.set(LabelCategory.Parsed, 'level', 'info');
    expect(sut.shouldExtract('level')).toBe(false);
  });

  it('sends parsed keys held by stream or metadata labels to <name>_extracted', () => {
    const sut = builder();
    sut.addStructuredMetadata(labelsFromRecord({ trace: 't' }));
    expect(sut.extractedName('app')).toBe('app_extracted');
    expect(sut.extractedName('trace')).toBe('trace_extracted');
    expect(sut.extractedName('level')).toBe('level');
  });
});

describe('LabelsBuilder.groupedLabels', () => {
  const grouped = (names: string[], setup: (b: LabelsBuilder) => void, without = false) => {
    const sut = builder();
    sut.grouping = { names, without, noLabels: false };
    sut.reset();
    setup(sut);
    return sut.groupedLabels().toString();
  };

  it('keeps the grouped labels of every category, and only those', () => {
    const got = grouped(['app', 'level', 'trace'], (b) => {
      b.addStructuredMetadata(labelsFromRecord({ trace: 't1' }));
      b.set(LabelCategory.Parsed, 'level', 'warn');
      b.set(LabelCategory.Parsed, 'other', 'x');
    });
    expect(got).toBe('{app="api", level="warn", trace="t1"}');
  });

  it('gives entries with equal grouped values one result object', () => {
    const sut = builder();
    sut.grouping = { names: ['level'], without: false, noLabels: false };
    const results = ['a', 'b'].map((other) => {
      sut.reset();
      sut.set(LabelCategory.Parsed, 'level', 'warn');
      sut.set(LabelCategory.Parsed, 'other', other);
      return sut.groupedLabels();
    });
    expect(results[0]).toBe(results[1]);
  });

  it('by one label: values in any order, a missing value, a stream value', () => {
    const sut = builder();
    sut.grouping = { names: ['level'], without: false, noLabels: false };
    const seen = new Map<string, unknown>();
    for (const v of ['warn', 'info', undefined, 'warn', undefined, 'info', '', 'x'.repeat(3)]) {
      sut.reset();
      if (v !== undefined) sut.set(LabelCategory.Parsed, 'level', v);
      sut.set(LabelCategory.Parsed, 'other', 'o');
      const got = sut.groupedLabels();
      const want = v === undefined ? '{}' : `{level="${v}"}`;
      expect(got.toString()).toBe(want);
      const first = seen.get(want);
      if (first !== undefined) expect(got).toBe(first);
      else seen.set(want, got);
    }
    const byApp = builder();
    byApp.grouping = { names: ['app'], without: false, noLabels: false };
    byApp.reset();
    byApp.set(LabelCategory.Parsed, 'other', 'o');
    expect(byApp.groupedLabels().toString()).toBe('{app="api"}');
  });

  it('keeps every label of an entry with an error, so the error is reported', () => {
    const got = grouped(['level'], (b) => {
      b.set(LabelCategory.Parsed, 'level', 'warn');
      b.setParserErr('JSONParserErr', 'bad');
    });
    expect(got).toBe(
      '{__error__="JSONParserErr", __error_details__="bad", app="api", env="prod", level="warn"}',
    );
  });

  it('drops the grouped labels with `without`, and leftover error details (as Loki)', () => {
    const got = grouped(
      ['env'],
      (b) => {
        b.set(LabelCategory.Parsed, 'level', 'warn');
        b.setErrorDetails('left over');
      },
      true,
    );
    expect(got).toBe('{app="api", level="warn"}');
  });
});

describe('normalizeMetadataName', () => {
  it.each([
    ['trace_id', 'trace_id'],
    ['trace.id', 'trace_id'],
    ['1abc', 'key_1abc'],
    ['_foo', 'key_foo'],
    ['__foo', '__foo'],
    ['é-x', 'é_x'],
  ])('%s → %s', (input, want) => {
    expect(normalizeMetadataName(input)).toBe(want);
  });
});
