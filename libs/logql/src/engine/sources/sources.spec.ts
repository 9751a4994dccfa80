import { describe, expect, it } from 'vitest';
import { labelsToString, type Matcher } from '@logsvc/api';
import type { Direction, LogSource, SelectParams } from '../source';
import { newQueryStats, type QueryStats } from '../stats';
import { combineSources } from './combine';
import { MemorySource } from './memory-source';
import { multiTenantSource, withTenant } from './multi-tenant';

function params(
  stats: QueryStats,
  matchers: Matcher[],
  direction: Direction = 'forward',
  fromNs = 0n,
  throughNs = 1000n,
): SelectParams {
  return { tenant: 't', matchers, fromNs, throughNs, direction, stats };
}

/** Reads every stream of a select as `labels: ts:line ts:line ...`. */
async function read(source: LogSource, p: SelectParams): Promise<string[]> {
  const streams = await source.select(p);
  return streams
    .map((s) => {
      const parts: string[] = [];
      while (s.entries.next()) parts.push(`${s.entries.timestampNs}:${s.entries.line.toString()}`);
      const labels = s.tenant === undefined ? s.labels : withTenant(s.labels, s.tenant);
      return `${labelsToString(labels)} ${parts.join(' ')}`;
    })
    .sort();
}

const app = (v: string): Matcher[] => [{ type: '=', name: 'app', value: v }];

describe('MemorySource', () => {
  const source = new MemorySource([
    {
      labels: '{app="a", env="prod"}',
      entries: [
        { timestampNs: 30n, line: 'three' },
        { timestampNs: 10n, line: 'one', structuredMetadata: { trace: 'x' } },
        { timestampNs: 20n, line: 'two' },
      ],
    },
    { labels: { app: 'b' }, entries: [{ timestampNs: 5n, line: 'bee' }], tenant: 'other' },
  ]);

  it('selects by matchers and [from, through), sorted in direction order', async () => {
    const stats = newQueryStats();
    expect(await read(source, params(stats, app('a'), 'forward', 10n, 30n))).toEqual([
      '{app="a", env="prod"} 10:one 20:two',
    ]);
    expect(await read(source, params(stats, app('a'), 'backward'))).toEqual([
      '{app="a", env="prod"} 30:three 20:two 10:one',
    ]);
    expect(stats.querier.store.chunk.decompressedLines).toBe(5);
    expect(stats.querier.store.chunk.decompressedBytes).toBe(3 + 3 + 3 + 5 + 3);
    expect(stats.querier.store.chunk.decompressedStructuredMetadataBytes).toBe(12);
  });

  it('hides streams of other tenants', async () => {
    const stats = newQueryStats();
    const regex: Matcher[] = [{ type: '=~', name: 'app', value: '.+' }];
    expect(await read(source, params(stats, regex))).toHaveLength(1);
    expect(await read(source, { ...params(stats, regex), tenant: 'other' })).toHaveLength(2);
  });

  it('counts lines as ingester head chunk lines when asked', async () => {
    const stats = newQueryStats();
    const ing = new MemorySource(
      [{ labels: '{app="a"}', entries: [{ timestampNs: 1n, line: 'x' }] }],
      {
        countAs: 'ingester',
      },
    );
    await read(ing, params(stats, app('a')));
    expect(stats.ingester.store.chunk.headChunkLines).toBe(1);
    expect(stats.querier.store.chunk.decompressedLines).toBe(0);
  });
});

describe('combineSources', () => {
  const ingester = new MemorySource([
    {
      labels: '{app="a"}',
      entries: [
        { timestampNs: 20n, line: 'b' },
        { timestampNs: 30n, line: 'c' },
        { timestampNs: 30n, line: 'c2' },
        { timestampNs: 40n, line: 'd' },
      ],
    },
    { labels: '{app="only-ingester"}', entries: [{ timestampNs: 1n, line: 'i' }] },
  ]);
  const store = new MemorySource([
    {
      labels: '{app="a"}',
      entries: [
        { timestampNs: 10n, line: 'a' },
        { timestampNs: 20n, line: 'b' },
        { timestampNs: 30n, line: 'c2' },
        { timestampNs: 30n, line: 'other' },
      ],
    },
  ]);
  const both = combineSources(ingester, store);
  const regex: Matcher[] = [{ type: '=~', name: 'app', value: '.+' }];

  it('merges a stream found in several sources and drops duplicate entries', async () => {
    const stats = newQueryStats();
    expect(await read(both, params(stats, regex))).toEqual([
      '{app="a"} 10:a 20:b 30:c 30:c2 30:other 40:d',
      '{app="only-ingester"} 1:i',
    ]);
    expect(stats.querier.store.chunk.totalDuplicates).toBe(2);
  });

  it('merges newest first for backward queries, exactly the forward order reversed', async () => {
    const stats = newQueryStats();
    const [a] = await read(both, params(stats, app('a'), 'backward'));
    expect(a).toBe('{app="a"} 40:d 30:other 30:c2 30:c 20:b 10:a');
    expect(stats.querier.store.chunk.totalDuplicates).toBe(2);
  });
});

describe('combineSources at one timestamp', () => {
  // Lines logged within one millisecond: each source holds them in insertion order, not by line.
  const at = (lines: string[]) => lines.map((line) => ({ timestampNs: 7n, line }));
  const flushed = new MemorySource([{ labels: '{app="a"}', entries: at(['m10', 'm7', 'm9']) }]);
  const memory = new MemorySource([{ labels: '{app="a"}', entries: at(['m7', 'm9', 'm2', 'm1']) }]);
  const both = combineSources(flushed, memory);

  it('keeps the first source in its order, then lines only later sources hold', async () => {
    const stats = newQueryStats();
    expect(await read(both, params(stats, app('a')))).toEqual([
      '{app="a"} 7:m10 7:m7 7:m9 7:m2 7:m1',
    ]);
    expect(stats.querier.store.chunk.totalDuplicates).toBe(2);
    const back = newQueryStats();
    expect(await read(both, params(back, app('a'), 'backward'))).toEqual([
      '{app="a"} 7:m1 7:m2 7:m9 7:m7 7:m10',
    ]);
    expect(back.querier.store.chunk.totalDuplicates).toBe(2);
  });
});

describe('multiTenantSource', () => {
  const perTenant: Record<string, LogSource> = {
    t1: new MemorySource([{ labels: '{app="a"}', entries: [{ timestampNs: 1n, line: 'one' }] }]),
    t2: new MemorySource([
      { labels: '{app="a", __tenant_id__="inner"}', entries: [{ timestampNs: 2n, line: 'two' }] },
    ]),
    t3: new MemorySource([{ labels: '{app="a"}', entries: [{ timestampNs: 3n, line: 'three' }] }]),
  };
  const source = multiTenantSource(['t1', 't2', 't3'], (t) => perTenant[t]);

  it('labels every stream with its tenant and keeps an existing label as original_', async () => {
    expect(await read(source, params(newQueryStats(), app('a')))).toEqual([
      '{__tenant_id__="t1", app="a"} 1:one',
      '{__tenant_id__="t2", app="a", original___tenant_id__="inner"} 2:two',
      '{__tenant_id__="t3", app="a"} 3:three',
    ]);
  });

  it('picks tenants with __tenant_id__ matchers and removes them before selecting', async () => {
    const m: Matcher[] = [...app('a'), { type: '=~', name: '__tenant_id__', value: 't1|t3' }];
    expect(await read(source, params(newQueryStats(), m))).toEqual([
      '{__tenant_id__="t1", app="a"} 1:one',
      '{__tenant_id__="t3", app="a"} 3:three',
    ]);
    const not: Matcher[] = [...app('a'), { type: '!=', name: '__tenant_id__', value: 't1' }];
    expect(await read(source, params(newQueryStats(), not))).toHaveLength(2);
  });

  it('asks one shared source with each tenant in turn', async () => {
    const shared = new MemorySource([
      { labels: '{app="a"}', tenant: 'x', entries: [{ timestampNs: 1n, line: 'x1' }] },
      { labels: '{app="a"}', tenant: 'y', entries: [{ timestampNs: 2n, line: 'y1' }] },
      { labels: '{app="a"}', tenant: 'z', entries: [{ timestampNs: 3n, line: 'z1' }] },
    ]);
    expect(
      await read(multiTenantSource(['x', 'y'], shared), params(newQueryStats(), app('a'))),
    ).toEqual(['{__tenant_id__="x", app="a"} 1:x1', '{__tenant_id__="y", app="a"} 2:y1']);
  });
});
