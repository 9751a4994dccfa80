import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLabels, type Labels } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import { Ingester } from '@logsvc/ingester';
import { type EntryCursor, combineSources, multiTenantSource, newQueryStats } from '@logsvc/logql';
import { ChunkStore } from '@logsvc/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalIngesterClient } from '@logsvc/ingester';
import { IngesterLogSource } from './ingester-source';
import { StoreLogSource } from './store-source';
import { filesystemStore, toStoredChunk } from './testing/filesystem-store';

const drain = (c: EntryCursor): [bigint, string][] => {
  const out: [bigint, string][] = [];
  while (c.next()) out.push([c.timestampNs, c.line.toString()]);
  return out;
};

function chunkOf(rows: [bigint, string][]): MemChunk {
  const c = new MemChunk();
  for (const [ts, line] of rows) c.append(ts, Buffer.from(line), []);
  return c;
}

async function put(store: ChunkStore, tenant: string, labels: Labels, rows: [bigint, string][]) {
  const c = chunkOf(rows);
  await store.putChunks(tenant, [toStoredChunk(labels, c)]);
}

const T = 1_700_000_000_000_000_000n;
const app = (value: string) => [{ type: '=' as const, name: 'app', value }];

describe('StoreLogSource', () => {
  let dir: string;
  let store: ChunkStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-source-'));
    store = filesystemStore(dir);
    const labels = parseLabels('{app="api"}');
    // Two overlapping chunks of one stream with one entry in both.
    await put(store, 'a', labels, [
      [T, 'one'],
      [T + 2n, 'three'],
    ]);
    await put(store, 'a', labels, [
      [T + 1n, 'two'],
      [T + 2n, 'three'],
      [T + 3n, 'four'],
    ]);
    await put(store, 'b', parseLabels('{app="api", __tenant_id__="x"}'), [[T, 'other tenant']]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('merges a stream’s chunks in order, drops duplicates and honours [from, through)', async () => {
    const stats = newQueryStats();
    const sut = new StoreLogSource(store);
    const streams = await sut.select({
      tenant: 'a',
      matchers: app('api'),
      fromNs: T,
      throughNs: T + 3n,
      direction: 'forward',
      stats,
    });
    expect(streams).toHaveLength(1);
    expect(drain(streams[0].entries)).toEqual([
      [T, 'one'],
      [T + 1n, 'two'],
      [T + 2n, 'three'],
    ]);
    const s = stats.querier.store;
    expect(s.totalChunksRef).toBe(2);
    expect(s.totalChunksDownloaded).toBe(2);
    expect(s.chunk.compressedBytes).toBeGreaterThan(0);
    // As Loki counts: every line in range of each chunk read, the copy in both chunks twice.
    expect(s.chunk.decompressedLines).toBe(4);
    expect(s.chunk.decompressedBytes).toBe('one three two three'.replaceAll(' ', '').length);
  });

  it('reads backward', async () => {
    const streams = await new StoreLogSource(store).select({
      tenant: 'a',
      matchers: app('api'),
      fromNs: T,
      throughNs: T + 10n,
      direction: 'backward',
      stats: newQueryStats(),
    });
    expect(drain(streams[0].entries).map(([, l]) => l)).toEqual(['four', 'three', 'two', 'one']);
  });

  it('names each stream’s tenant across tenants, a stored __tenant_id__ left for the engine to rename', async () => {
    const sut = multiTenantSource(['a', 'b'], new StoreLogSource(store));
    const params = {
      tenant: 'a|b',
      fromNs: T,
      throughNs: T + 10n,
      direction: 'forward' as const,
      stats: newQueryStats(),
    };
    const all = await sut.select({ ...params, matchers: app('api') });
    expect(all.map((s) => [s.tenant, s.labels])).toEqual([
      ['a', parseLabels('{app="api"}')],
      ['b', parseLabels('{__tenant_id__="x", app="api"}')],
    ]);
    const onlyB = await sut.select({
      ...params,
      matchers: [...app('api'), { type: '=', name: '__tenant_id__', value: 'b' }],
    });
    expect(onlyB).toHaveLength(1);
    expect(drain(onlyB[0].entries)).toEqual([[T, 'other tenant']]);
  });
});

describe('IngesterLogSource', () => {
  it('reads the in-memory streams and counts ingester stats', async () => {
    const ingester = new Ingester({
      config: { wal: { enabled: false, dir: '', checkpoint_duration: 0 } } as never,
      sink: { putChunks: async () => undefined },
      backgroundLoops: false,
    });
    await ingester.start();
    await ingester.push('a', {
      streams: [
        {
          labels: parseLabels('{app="api"}'),
          entries: [
            { timestampNs: T, line: Buffer.from('x'), structuredMetadata: [] },
            { timestampNs: T + 1n, line: Buffer.from('yy'), structuredMetadata: [] },
          ],
        },
      ],
    });
    const stats = newQueryStats();
    const params = {
      tenant: 'a',
      matchers: app('api'),
      fromNs: T,
      throughNs: T + 10n,
      direction: 'forward' as const,
      stats,
    };
    expect(await new IngesterLogSource(new LocalIngesterClient()).select(params)).toEqual([]);
    const sut = new IngesterLogSource(new LocalIngesterClient(ingester));
    const streams = await sut.select(params);
    expect(drain(streams[0].entries)).toEqual([
      [T, 'x'],
      [T + 1n, 'yy'],
    ]);
    expect(stats.ingester.totalReached).toBe(1);
    expect(stats.ingester.totalLinesSent).toBe(2);
    expect(stats.ingester.store.chunk.headChunkLines).toBe(2);
    await ingester.shutdown({ flush: false });
  });
});

describe('combined ingester and store sources', () => {
  it('merges a stream found in several sources and returns shared entries once', async () => {
    const labels = parseLabels('{app="api"}');
    const fixed = (rows: [bigint, string][]) => ({
      select: async () => [{ labels, entries: chunkOf(rows).iterator(0n, 2n ** 62n, 'forward') }],
    });
    const sut = combineSources(
      fixed([
        [T, 'a'],
        [T + 2n, 'c'],
      ]),
      fixed([
        [T + 1n, 'b'],
        [T + 2n, 'c'],
      ]),
    );
    const streams = await sut.select({
      tenant: 'a',
      matchers: app('api'),
      fromNs: T,
      throughNs: T + 10n,
      direction: 'forward',
      stats: newQueryStats(),
    });
    expect(streams).toHaveLength(1);
    expect(drain(streams[0].entries).map(([, l]) => l)).toEqual(['a', 'b', 'c']);
  });
});
