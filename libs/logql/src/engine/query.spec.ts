import { describe, expect, it } from 'vitest';
import { labelsToString, type QueryResult } from '@logsvc/api';
import { ParseError } from '../syntax/errors';
import { UnsupportedQueryError } from './logs/errors';
import { defaultStepNs, runQuery, type RunQueryParams } from './query';
import { MemorySource } from './sources/memory-source';

const S = 1_000_000_000n;

const source = new MemorySource([
  {
    labels: '{app="api"}',
    tenant: 'a',
    entries: [1, 2, 3, 4].map((s) => ({ timestampNs: BigInt(s) * S, line: `level=info n=${s}` })),
  },
  {
    labels: '{app="api"}',
    tenant: 'b',
    entries: [{ timestampNs: 5n * S, line: 'level=error n=5' }],
  },
]);

const base: RunQueryParams = {
  query: '{app="api"}',
  kind: 'range',
  startNs: 0n,
  endNs: 10n * S,
  limit: 100,
  direction: 'backward',
  tenants: 'a',
  source,
};

function streams(result: QueryResult): string[] {
  if (result.type !== 'streams') throw new Error(`expected streams, got ${result.type}`);
  return result.streams.map(
    (s) => `${labelsToString(s.labels)} ${s.entries.map(([, line]) => line).join(', ')}`,
  );
}

describe('runQuery', () => {
  it('answers a range log query with streams and a filled summary', async () => {
    const r = await runQuery({ ...base, query: '{app="api"} |= "n=" | logfmt | n > 1' });
    expect(r.resultType).toBe('streams');
    expect(streams(r.result)).toEqual([
      '{app="api", level="info", n="2"} level=info n=2',
      '{app="api", level="info", n="3"} level=info n=3',
      '{app="api", level="info", n="4"} level=info n=4',
    ]);
    const s = r.stats.summary;
    expect(s.totalLinesProcessed).toBe(4);
    expect(s.totalBytesProcessed).toBe(4 * 'level=info n=1'.length);
    expect(s.totalPostFilterLines).toBe(3);
    expect(s.totalEntriesReturned).toBe(3);
    expect(s.subqueries).toBe(1);
    expect(s.execTime).toBeGreaterThan(0);
    expect(s.linesProcessedPerSecond).toBe(Math.trunc(4 / s.execTime));
  });

  it('applies limit, direction and interval in milliseconds', async () => {
    const r = await runQuery({ ...base, limit: 2, direction: 'forward' });
    expect(streams(r.result)).toEqual(['{app="api"} level=info n=1, level=info n=2']);
    const i = await runQuery({ ...base, intervalMs: 2000, direction: 'forward' });
    expect(streams(i.result)).toEqual(['{app="api"} level=info n=1, level=info n=3']);
  });

  it('rejects an instant log query as Loki does', async () => {
    await expect(runQuery({ ...base, kind: 'instant' })).rejects.toThrow(
      new UnsupportedQueryError(
        'log queries are not supported as an instant query type, please change your query to a range query type',
      ),
    );
  });

  it('lets parse errors and stage errors through as ParseError', async () => {
    await expect(runQuery({ ...base, query: '{app="api"' })).rejects.toBeInstanceOf(ParseError);
    // Loki 3.4 builds the regexp parser while parsing (newLabelParserExpr).
    await expect(runQuery({ ...base, query: '{app="api"} | regexp "no groups"' })).rejects.toThrow(
      `parse error : invalid regexp parser: at least one named capture must be supplied`,
    );
    await expect(runQuery({ ...base, query: '{app="api"} |= ip("nope")' })).rejects.toThrow(
      `parse error : stage '|= ip("nope")' : ip: invalid pattern: "nope"`,
    );
  });

  it('queries several tenants with the __tenant_id__ label', async () => {
    const r = await runQuery({ ...base, tenants: ['a', 'b'], limit: 2 });
    expect(streams(r.result)).toEqual([
      '{__tenant_id__="a", app="api"} level=info n=4',
      '{__tenant_id__="b", app="api"} level=error n=5',
    ]);
    const only = await runQuery({
      ...base,
      tenants: ['a', 'b'],
      query: '{app="api", __tenant_id__=~"b"}',
    });
    expect(streams(only.result)).toEqual(['{__tenant_id__="b", app="api"} level=error n=5']);
  });

  it('adds __tenant_id__ after the pipeline, as Loki does, and renames a stored one', async () => {
    const tenants = ['a', 'b'];
    const stored = new MemorySource([
      ...[1, 2].map((n) => ({
        labels: '{app="api"}',
        tenant: 'a',
        entries: [{ timestampNs: BigInt(n) * S, line: `level=info n=${n}` }],
      })),
      {
        labels: '{app="api", __tenant_id__="inner"}',
        tenant: 'b',
        entries: [{ timestampNs: 5n * S, line: 'level=error n=5' }],
      },
    ]);
    const q = (query: string, limit = 100) =>
      runQuery({ ...base, source: stored, tenants, query, limit });
    // `keep` cannot drop a label the pipeline never saw; templates do not see it either.
    expect(streams((await q('{app="api"} | keep app')).result)).toEqual([
      '{__tenant_id__="a", app="api"} level=info n=2, level=info n=1',
      '{__tenant_id__="b", app="api"} level=error n=5',
    ]);
    expect(streams((await q('{app="api"} | line_format "[{{.__tenant_id__}}]"')).result)).toEqual([
      '{__tenant_id__="a", app="api"} [], []',
      '{__tenant_id__="b", app="api", original___tenant_id__="inner"} [inner]',
    ]);
    expect(streams((await q('{app="api"} | __tenant_id__="a"')).result)).toEqual([]);
    // Relabelling drops labels with empty values (one tenant keeps them).
    expect(streams((await q('{app="api"} | label_format e="" | drop app', 1)).result)).toEqual([
      '{__tenant_id__="b", original___tenant_id__="inner"} level=error n=5',
    ]);
    // A matcher on original___tenant_id__ selects by the stored label.
    expect(streams((await q('{original___tenant_id__="inner"}')).result)).toEqual([
      '{__tenant_id__="b", app="api", original___tenant_id__="inner"} level=error n=5',
    ]);
    const byTenant = await runQuery({
      ...base,
      source: stored,
      tenants,
      kind: 'instant',
      query: 'sum by (__tenant_id__, app) (count_over_time({app="api"} | keep app [10s]))',
    });
    expect(byTenant.result).toMatchObject({
      samples: [
        {
          labels: [
            { name: '__tenant_id__', value: 'a' },
            { name: 'app', value: 'api' },
          ],
          value: 2,
        },
        {
          labels: [
            { name: '__tenant_id__', value: 'b' },
            { name: 'app', value: 'api' },
          ],
          value: 1,
        },
      ],
    });
  });

  it('refuses a multi-tenant selector left without a non-empty matcher, with Loki’s text', async () => {
    for (const query of ['{__tenant_id__="b"}', 'count_over_time({__tenant_id__="b"}[5s])']) {
      await expect(runQuery({ ...base, tenants: ['a', 'b'], query })).rejects.toThrow(
        'log selector is invalid after matcher update: parse error : queries require at least one regexp or equality matcher',
      );
    }
    // With one tenant, __tenant_id__ is an ordinary label.
    expect(streams((await runQuery({ ...base, query: '{__tenant_id__="a"}' })).result)).toEqual([]);
  });

  it('sends metric queries to the metric evaluator', async () => {
    const v = await runQuery({
      ...base,
      kind: 'instant',
      query: 'count_over_time({app="api"}[10s])',
    });
    expect(v.resultType).toBe('vector');
    expect(v.result).toEqual({
      type: 'vector',
      samples: [{ labels: [{ name: 'app', value: 'api' }], timestampMs: 10_000, value: 4 }],
    });
    expect(v.stats.summary.totalEntriesReturned).toBe(1);

    const m = await runQuery({
      ...base,
      startNs: 2n * S,
      endNs: 4n * S,
      stepMs: 1000,
      query: 'sum(count_over_time({app="api"}[1s]))',
    });
    expect(m.result).toEqual({
      type: 'matrix',
      series: [
        {
          labels: [],
          points: [
            [2000, 1],
            [3000, 1],
            [4000, 1],
          ],
        },
      ],
    });
    expect(m.stats.summary.totalEntriesReturned).toBe(3);

    const s = await runQuery({ ...base, kind: 'instant', query: '1 + 2' });
    expect(s.result).toEqual({ type: 'scalar', timestampMs: 10_000, value: 3 });
  });

  it('computes Loki’s default step', () => {
    expect(defaultStepNs(0n, 3600n * S)).toBe(14n * S);
    expect(defaultStepNs(0n, 100n * S)).toBe(1n * S);
  });
});
