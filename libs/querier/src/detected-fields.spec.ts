import { type Labels, type ResultEntry, type ResultStream, parseLabels } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { detectFieldValues, detectFields } from './detected-fields';

type Meta = Record<string, string>;

const pairs = (m: Meta | undefined): Labels =>
  Object.entries(m ?? {}).map(([name, value]) => ({ name, value }));

/** A stream as a categorize-labels log query returns it, entries newest first. */
function stream(labels: string, rows: Array<[string, Meta?, Meta?]>): ResultStream {
  return {
    labels: parseLabels(labels),
    entries: rows.map(([line, meta, parsed], i): ResultEntry => {
      const categories = {
        ...(meta ? { structuredMetadata: pairs(meta) } : {}),
        ...(parsed ? { parsed: pairs(parsed) } : {}),
      };
      return [BigInt(100 - i), line, categories];
    }),
  };
}

const api = stream('{app="api", env="prod"}', [
  ['count=5 ratio=1e3 flag=T mem2=10kib'],
  ['GET /path?x=1 200'],
  ['plain text line without fields'],
  ['{"level":"warn","nested":{"a":1,"b":"x"},"arr":[1,2],"nul":null,"status":404,"size":"10 MiB"}'],
  [
    'level=error duration=1.2s status=500 size=20MB latency=3 user=bob app=shadow',
    { trace_id: 'def' },
  ],
  ['level=info duration=15ms status=200 size=1.5KB latency=0.25 user=alice', { trace_id: 'abc' }],
]);

describe('detectFields', () => {
  it('reads JSON lines as JSON and every other line as logfmt, with structured metadata', () => {
    const byName = Object.fromEntries(detectFields([api], 1000).map((f) => [f.label, f]));
    expect(Object.keys(byName)).toEqual([
      '_path_x',
      'app_extracted',
      'count',
      'duration',
      'flag',
      'latency',
      'level',
      'mem2',
      'nested_a',
      'nested_b',
      'ratio',
      'size',
      'status',
      'trace_id',
      'user',
    ]);
    expect(byName.level).toEqual({
      label: 'level',
      type: 'string',
      cardinality: 3,
      parsers: ['json', 'logfmt'],
    });
    // Structured metadata has no parser.
    expect(byName.trace_id).toEqual({
      label: 'trace_id',
      type: 'string',
      cardinality: 2,
      parsers: null,
    });
    // A key equal to a stream label is the parser's `<key>_extracted`.
    expect(byName.app_extracted.parsers).toEqual(['logfmt']);
    expect(byName._path_x.type).toBe('int');
  });

  it('types a field by the last entry that has it, as Loki does', () => {
    const byName = Object.fromEntries(detectFields([api], 1000).map((f) => [f.label, f]));
    expect(byName.latency.type).toBe('float'); // 3 then 0.25 (oldest)
    expect(byName.status.type).toBe('int');
    expect(byName.duration.type).toBe('duration');
    expect(byName.size.type).toBe('bytes');
    expect(byName.flag.type).toBe('boolean');
    expect(byName.ratio.type).toBe('float');
    const mixed = stream('{app="x"}', [['status=200'], ['status=abc']]);
    expect(detectFields([mixed], 10)).toEqual([
      { label: 'status', type: 'string', cardinality: 2, parsers: ['logfmt'] },
    ]);
  });

  it('merges a structured-metadata field with a parsed field of the same name', () => {
    const web = stream('{app="web"}', [['user=carol', { user: 'meta-user' }]]);
    expect(detectFields([web], 10)).toEqual([
      { label: 'user', type: 'string', cardinality: 2, parsers: ['logfmt'] },
    ]);
  });

  it('counts labels the query parsers set, but never __error__', () => {
    const parsed = stream('{app="x"}', [
      ['not json', undefined, { __error__: 'JSONParserErr', __error_details__: 'x', code: '7' }],
    ]);
    expect(detectFields([parsed], 10)).toEqual([
      { label: 'code', type: 'int', cardinality: 1, parsers: ['logfmt'] },
    ]);
  });

  it('parses a key named like a stream label the query pipeline replaced under its own name', () => {
    const relabelled = stream('{app="x"}', [['app=y', undefined, { app: 'z' }]]);
    expect(detectFields([relabelled], 10)).toEqual([
      { label: 'app', type: 'string', cardinality: 2, parsers: ['logfmt'] },
    ]);
  });

  it('keeps the first `limit` fields by name, whichever entry had them first', () => {
    const fields = detectFields([api], 2);
    expect(fields.map((f) => f.label)).toEqual(['_path_x', 'app_extracted']);
    const late = stream('{app="x"}', [['zeta=1 yak=2'], ['alpha=3']]);
    expect(detectFields([late], 2).map((f) => f.label)).toEqual(['alpha', 'yak']);
  });

  it('finds nothing in lines without fields', () => {
    expect(detectFields([stream('{app="x"}', [['hello world'], ['[1,2,3]']])], 10)).toEqual([]);
  });
});

describe('detectFieldValues', () => {
  it('lists distinct values, byte sizes in a form a query can use', () => {
    expect(detectFieldValues([api], 'size', 1000)).toEqual(['1.5kB', '10MB', '20MB']);
    expect(detectFieldValues([api], 'trace_id', 1000)).toEqual(['abc', 'def']);
    expect(detectFieldValues([api], 'duration', 1000)).toEqual(['1.2s', '15ms']);
    expect(detectFieldValues([api], 'nope', 1000)).toEqual([]);
  });

  it('stops reading entries once `limit` values are found', () => {
    expect(detectFieldValues([api], 'level', 1)).toEqual(['warn']);
  });
});
