import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  labelsFromRecord,
  labelsToString,
  newCacheStats,
  type Labels,
  type Matcher,
} from '@logsvc/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChunkStore, type ChunkToStore, timeFactor } from './chunk-store';
import { ChunkChecksumError, CorruptIndexError, InvalidTenantError, StorageError } from './errors';
import { FilesystemObjectClient } from './filesystem-object-client';
import type { ObjectClient } from './object-client';
import type { SchemaConfig } from './schema-config';

const DAY_MS = 86_400_000;
const NS = 1_000_000n;
const DAY0 = 19_800; // 2024-03-19
const schema: SchemaConfig = {
  configs: [
    {
      from: '2024-01-01',
      object_store: 'filesystem',
      schema: 'v13',
      index: { prefix: 'index_', period: DAY_MS },
    },
  ],
};

function at(day: number, hour: number): bigint {
  return BigInt(day * DAY_MS + hour * 3_600_000) * NS;
}

function chunk(
  labels: Record<string, string>,
  fromNs: bigint,
  throughNs: bigint,
  body = 'x',
): ChunkToStore {
  const data = Buffer.from(`${labelsToString(labelsFromRecord(labels))}|${fromNs}|${body}`);
  return {
    labels: labelsFromRecord(labels),
    fromNs,
    throughNs,
    entries: 10,
    uncompressedSize: data.length * 3,
    data,
  };
}

function eq(name: string, value: string): Matcher {
  return { type: '=', name, value };
}

const names = (ls: Labels[]): string[] => ls.map(labelsToString);

describe('ChunkStore on the filesystem', () => {
  let dir: string;
  let client: ObjectClient;
  let sut: ChunkStore;
  const open = (uploader = 'ingester-1'): ChunkStore =>
    new ChunkStore({ schema, objectClients: { filesystem: client }, uploader });

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'logsvc-store-'));
    client = new FilesystemObjectClient(dir);
    sut = open();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('stores chunks and an index that a fresh instance (a restarted process) reads back', async () => {
    const input = [
      chunk({ app: 'api', env: 'prod' }, at(DAY0, 1), at(DAY0, 2)),
      chunk({ app: 'api', env: 'prod' }, at(DAY0, 3), at(DAY0, 4)),
      chunk({ app: 'web', env: 'dev' }, at(DAY0, 1), at(DAY0, 5)),
    ];
    const refs = await sut.putChunks('tenant-a', input);
    expect(refs.map((r) => r.key)).toEqual([
      expect.stringMatching(/^tenant-a\/chunks\/[0-9a-f]{16}\/[0-9a-f]+-[0-9a-f]+-[0-9a-f]{8}$/),
      expect.any(String),
      expect.any(String),
    ]);

    const restarted = open('querier');
    const series = await restarted.getChunkRefs(
      'tenant-a',
      [eq('app', 'api')],
      at(DAY0, 0),
      at(DAY0, 23),
    );
    expect(series).toHaveLength(1);
    expect(labelsToString(series[0].labels)).toBe('{app="api", env="prod"}');
    expect(series[0].chunks.map((c) => c.key)).toEqual([refs[0].key, refs[1].key]);
    expect(series[0].chunks[0]).toEqual(refs[0]);
    const bytes = await restarted.fetchChunks('tenant-a', series[0].chunks);
    expect(bytes.map((b) => b.toString())).toEqual([
      input[0].data.toString(),
      input[1].data.toString(),
    ]);
  });

  it('returns only chunks overlapping the range, with inclusive ends', async () => {
    await sut.putChunks('t', [
      chunk({ app: 'a' }, at(DAY0, 1), at(DAY0, 2)),
      chunk({ app: 'a' }, at(DAY0, 5), at(DAY0, 6)),
    ]);
    const refs = async (from: bigint, through: bigint) =>
      (await sut.getChunkRefs('t', [eq('app', 'a')], from, through)).flatMap((s) =>
        s.chunks.map((c) => c.fromNs),
      );
    expect(await refs(at(DAY0, 2), at(DAY0, 5))).toEqual([at(DAY0, 1), at(DAY0, 5)]);
    expect(await refs(at(DAY0, 3), at(DAY0, 4))).toEqual([]);
    expect(await refs(at(DAY0, 6) + 1n, at(DAY0, 9))).toEqual([]);
    expect(await sut.getChunkRefs('t', [eq('app', 'a')], at(DAY0, 5), at(DAY0, 1))).toEqual([]);
  });

  it('answers multi-day ranges, indexing a chunk that crosses midnight in both days once', async () => {
    await sut.putChunks('t', [
      chunk({ app: 'a' }, at(DAY0, 23), at(DAY0 + 1, 1)),
      chunk({ app: 'a' }, at(DAY0 + 2, 12), at(DAY0 + 2, 13)),
      chunk({ app: 'b' }, at(DAY0 + 1, 12), at(DAY0 + 1, 13)),
    ]);
    expect(await sut.listIndexTables('t')).toEqual([
      `index_${DAY0}`,
      `index_${DAY0 + 1}`,
      `index_${DAY0 + 2}`,
    ]);
    const all = await sut.getChunkRefs('t', [eq('app', 'a')], at(DAY0, 0), at(DAY0 + 3, 0));
    expect(all[0].chunks.map((c) => c.fromNs)).toEqual([at(DAY0, 23), at(DAY0 + 2, 12)]);
    // Only the second day asked for: the midnight-crossing chunk is found through that day's table.
    const day1 = await sut.getChunkRefs('t', [eq('app', 'a')], at(DAY0 + 1, 0), at(DAY0 + 1, 23));
    expect(day1[0].chunks.map((c) => c.fromNs)).toEqual([at(DAY0, 23)]);
    expect(await sut.stats('t', [eq('app', 'a')], at(DAY0, 0), at(DAY0 + 3, 0))).toMatchObject({
      streams: 1,
      chunks: 2,
    });
  });

  it('answers label names, values, series, stats and volume from the index', async () => {
    const a = chunk({ app: 'api', env: 'prod' }, at(DAY0, 1), at(DAY0, 2));
    const b = chunk({ app: 'web', env: 'dev', team: 'x' }, at(DAY0, 1), at(DAY0, 2));
    const late = chunk({ app: 'late', region: 'eu' }, at(DAY0, 20), at(DAY0, 21));
    await sut.putChunks('t', [a, b, late]);
    const from = at(DAY0, 0);
    const through = at(DAY0, 10);
    expect(await sut.labelNames('t', from, through)).toEqual(['app', 'env', 'team']);
    expect(await sut.labelNames('t', from, at(DAY0, 23))).toEqual(['app', 'env', 'region', 'team']);
    expect(await sut.labelNames('t', from, through, [eq('app', 'api')])).toEqual(['app', 'env']);
    expect(await sut.labelValues('t', 'app', from, through)).toEqual(['api', 'web']);
    expect(await sut.labelValues('t', 'env', from, through, [eq('team', 'x')])).toEqual(['dev']);
    expect(await sut.labelValues('t', 'nope', from, through)).toEqual([]);
    expect(
      names(await sut.series('t', [[eq('app', 'api')], [eq('team', 'x')]], from, through)),
    ).toEqual(['{app="api", env="prod"}', '{app="web", env="dev", team="x"}']);
    expect(names(await sut.series('t', [], from, at(DAY0, 23)))).toHaveLength(3);
    expect(await sut.stats('t', [{ type: '=~', name: 'app', value: '.+' }], from, through)).toEqual(
      {
        streams: 2,
        chunks: 2,
        entries: 20,
        bytes: a.uncompressedSize + b.uncompressedSize,
      },
    );
    const volume = await sut.volume(
      't',
      [{ type: '!=', name: 'app', value: 'web' }],
      from,
      at(DAY0, 23),
    );
    expect(volume.map((v) => [labelsToString(v.labels), v.bytes, v.chunks])).toEqual([
      ['{app="api", env="prod"}', a.uncompressedSize, 1],
      ['{app="late", region="eu"}', late.uncompressedSize, 1],
    ]);
    // A range holding half of a chunk's time span counts half of its bytes, as Loki's index.
    const half = await sut.volume(
      't',
      [eq('app', 'api')],
      at(DAY0, 1) + 1800n * 10n ** 9n,
      through,
    );
    expect(half.map((v) => v.bytes)).toEqual([Math.trunc(a.uncompressedSize / 2)]);
    expect(timeFactor(0n, 10n, 5n, 5n)).toBe(1);
    expect(timeFactor(0n, 10n, 11n, 20n)).toBe(0);
    expect(timeFactor(0n, 10n, 5n, 15n)).toBe(0.5);
  });

  it('keeps every flush of concurrent writers (several processes, one table)', async () => {
    const writers = ['ingester-1', 'ingester-2', 'ingester-3'].map(open);
    await Promise.all(
      writers.flatMap((w, wi) =>
        Array.from({ length: 5 }, (_, i) =>
          w.putChunks('t', [chunk({ app: `w${wi}`, n: String(i) }, at(DAY0, i), at(DAY0, i + 1))]),
        ),
      ),
    );
    const reader = open('querier');
    const series = await reader.getChunkRefs(
      't',
      [{ type: '=~', name: 'app', value: 'w.' }],
      at(DAY0, 0),
      at(DAY0, 23),
    );
    expect(series).toHaveLength(15);
    const files = await readdir(path.join(dir, 't', 'index', `index_${DAY0}`));
    // Each process writes its own files; its concurrent puts share them.
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(files.length).toBeLessThan(15);
  });

  it('writes one index file for many streams flushed together, not one per stream', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        sut.putChunks('t', [chunk({ app: 'many', n: String(i) }, at(DAY0, 1), at(DAY0, 2))]),
      ),
    );
    const files = await readdir(path.join(dir, 't', 'index', `index_${DAY0}`));
    expect(files.length).toBeLessThanOrEqual(3);
    const series = await open('querier').getChunkRefs(
      't',
      [eq('app', 'many')],
      at(DAY0, 0),
      at(DAY0, 3),
    );
    expect(series).toHaveLength(50);
  });

  it('reports a corrupted index file as CorruptIndexError naming it, and keeps working', async () => {
    await sut.putChunks('t', [chunk({ app: 'a' }, at(DAY0, 1), at(DAY0, 2))]);
    const tableDir = path.join(dir, 't', 'index', `index_${DAY0}`);
    const [file] = await readdir(tableDir);
    await writeFile(path.join(tableDir, file), Buffer.from('LSIX\x01\x01garbage-garbage'));
    const fresh = open('querier');
    const query = fresh.getChunkRefs('t', [eq('app', 'a')], at(DAY0, 0), at(DAY0, 5));
    await expect(query).rejects.toBeInstanceOf(CorruptIndexError);
    await expect(
      fresh.getChunkRefs('t', [eq('app', 'a')], at(DAY0, 0), at(DAY0, 5)),
    ).rejects.toThrow(`corrupt index file t/index/index_${DAY0}/${file}: checksum mismatch`);
    expect(await fresh.getChunkRefs('other', [eq('app', 'a')], at(DAY0, 0), at(DAY0, 5))).toEqual(
      [],
    );
  });

  it('detects a chunk object altered after it was indexed', async () => {
    const [ref] = await sut.putChunks('t', [
      chunk({ app: 'a' }, at(DAY0, 1), at(DAY0, 2), 'original'),
    ]);
    const original = await client.get(ref.key);
    const tampered = Buffer.from(original);
    tampered[0] ^= 1;
    await client.put(ref.key, tampered);
    await expect(sut.fetchChunk('t', ref)).rejects.toBeInstanceOf(ChunkChecksumError);
    await client.put(ref.key, original.subarray(1));
    await expect(sut.fetchChunk('t', ref)).rejects.toThrow(/size/);
  });

  it('reads each chunk from the object store once through the chunk cache', async () => {
    const reads: string[] = [];
    const counting: ObjectClient = {
      put: (k, b) => client.put(k, b),
      get: (k) => (reads.push(k), client.get(k)),
      list: (p, o) => client.list(p, o),
      delete: (k) => client.delete(k),
    };
    const cached = new ChunkStore({
      schema,
      objectClients: { filesystem: counting },
      chunkCache: { maxSizeMb: 1 },
    });
    const refs = await cached.putChunks('t', [
      chunk({ app: 'a' }, at(DAY0, 1), at(DAY0, 2), 'one'),
      chunk({ app: 'b' }, at(DAY0, 1), at(DAY0, 2), 'two'),
    ]);
    const stats = newCacheStats();
    // Two sub-queries at once (their misses share one read), then a third later (all hits).
    const [first, second] = await Promise.all([
      cached.fetchChunks('t', refs, 8, stats),
      cached.fetchChunks('t', refs, 8, stats),
    ]);
    const third = await cached.fetchChunks('t', refs, 8, stats);
    expect(reads.filter((k) => refs.some((r) => r.key === k))).toHaveLength(2);
    for (const got of [first, second, third]) {
      expect(got.map((b) => b.toString())).toEqual([
        (await client.get(refs[0].key)).toString(),
        (await client.get(refs[1].key)).toString(),
      ]);
    }
    expect(stats).toMatchObject({ entriesRequested: 6, entriesFound: 2, entriesStored: 2 });
    // The cache does not let a tenant read another tenant's chunk.
    await expect(cached.fetchChunks('u', refs)).rejects.toThrow(/does not belong to tenant u/);
  });

  it('keeps tenants apart and refuses hostile tenant ids before touching storage', async () => {
    await sut.putChunks('a', [chunk({ app: 'x' }, at(DAY0, 1), at(DAY0, 2))]);
    const [refA] = (await sut.getChunkRefs('a', [], at(DAY0, 0), at(DAY0, 5)))[0].chunks;
    expect(await sut.getChunkRefs('b', [], at(DAY0, 0), at(DAY0, 5))).toEqual([]);
    await expect(sut.fetchChunk('b', refA)).rejects.toThrow(/does not belong to tenant b/);
    for (const hostile of [
      '..',
      '.',
      '../a',
      'a/../../etc',
      'a/b',
      '',
      'x\0',
      'a'.repeat(151),
      '%2e%2e',
    ]) {
      await expect(
        sut.putChunks(hostile, [chunk({ app: 'x' }, at(DAY0, 1), at(DAY0, 2))]),
      ).rejects.toBeInstanceOf(InvalidTenantError);
      await expect(sut.getChunkRefs(hostile, [], at(DAY0, 0), at(DAY0, 5))).rejects.toBeInstanceOf(
        InvalidTenantError,
      );
      await expect(sut.labelNames(hostile, at(DAY0, 0), at(DAY0, 5))).rejects.toBeInstanceOf(
        InvalidTenantError,
      );
    }
    expect((await readdir(dir)).sort()).toEqual(['a']);
    expect(await readdir(path.dirname(dir))).not.toContain('etc');
  });

  it('rejects malformed chunks with a message naming the chunk', async () => {
    await expect(
      sut.putChunks('t', [chunk({ app: 'x' }, at(DAY0, 2), at(DAY0, 1))]),
    ).rejects.toThrow(/chunk 0: needs 0 <= fromNs <= throughNs/);
    await expect(
      sut.putChunks('t', [{ ...chunk({ app: 'x' }, at(DAY0, 1), at(DAY0, 2)), entries: -1 }]),
    ).rejects.toThrow(StorageError);
  });

  it('refuses a schema whose object store has no client', () => {
    expect(() => new ChunkStore({ schema, objectClients: {} })).toThrow(/no client is configured/);
  });
});
