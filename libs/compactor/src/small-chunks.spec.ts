import * as path from 'node:path';
import { isColumnarChunk, MemChunk, SourceMergeCursor } from '@logsvc/chunk';
import type { ChunkStore } from '@logsvc/storage';
import { describe, expect, it } from 'vitest';
import type { CompactorOptions } from './compactor';
import { PassJournal } from './pass-journal';
import { smallChunkRuns } from './small-chunks';
import { DAY_MS, putLines, compactorTestEnv, testCompactor } from './testing/fixture';

const T = 'team-a';
const DAY = 19_800;
const dayStart = DAY * DAY_MS;
const END = (1n << 63n) - 1n;

/** What a querier reads for `{app=...}`: the stream's chunks merged, copies dropped. */
async function query(store: ChunkStore, app: string): Promise<string[]> {
  const series = await store.getChunkRefs(T, [{ type: '=', name: 'app', value: app }], 0n, END);
  const out: string[] = [];
  for (const s of series) {
    const cursors = [];
    for (const ref of s.chunks) {
      const chunk = MemChunk.decode(await store.fetchChunk(T, ref));
      cursors.push(chunk.iterator(0n, END, 'forward'));
    }
    const merged = new SourceMergeCursor(cursors, 'forward');
    while (merged.next()) {
      const sm = merged.structuredMetadata.map((l) => `${l.name}=${l.value}`).join(',');
      out.push(`${merged.timestampNs} ${merged.line.toString()} ${sm}`);
    }
  }
  return out;
}

async function chunkCount(store: ChunkStore, app: string): Promise<number> {
  const series = await store.getChunkRefs(T, [{ type: '=', name: 'app', value: app }], 0n, END);
  return series.reduce((n, s) => n + s.chunks.length, 0);
}

describe('smallChunkRuns', () => {
  const ref = (from: number, through: number, size: number) => ({
    fromNs: BigInt(from),
    throughNs: BigInt(through),
    entries: 1,
    size,
    uncompressedSize: size,
    key: `k${from}`,
    checksum: 0,
  });
  it('groups adjacent small chunks inside the table, within the target', () => {
    const chunks = [ref(1, 2, 10), ref(3, 4, 10), ref(5, 6, 300), ref(7, 8, 10), ref(9, 10, 20)];
    const runs = smallChunkRuns(chunks, 0n, 100n, 100);
    expect(runs.map((r) => r.map((c) => c.key))).toEqual([
      ['k1', 'k3'],
      ['k7', 'k9'],
    ]);
    // A chunk reaching outside the table stays, and breaks the run.
    expect(smallChunkRuns([ref(1, 2, 10), ref(3, 200, 10)], 0n, 100n, 100)).toEqual([]);
    // A run stops before the target is passed.
    const many = [1, 2, 3, 4, 5].map((i) => ref(i, i, 10));
    expect(smallChunkRuns(many, 0n, 100n, 44).map((r) => r.length)).toEqual([4]);
  });
});

describe('Compactor: small chunks', () => {
  const t = compactorTestEnv(dayStart + 2 * DAY_MS);

  const compactor = (over: Partial<CompactorOptions> = {}) =>
    testCompactor(t.env, () => t.now, {
      journal: new PassJournal(path.join(t.env.dir, 'work')),
      retentionDeleteDelayMs: 60_000,
      smallChunks: { targetBytes: 64 * 1024 },
      ...over,
    });

  /** Eight small chunks of app=a (one with metadata and a copy of another's line), two of b. */
  async function smallFlushes(): Promise<void> {
    for (let i = 0; i < 8; i++) {
      const lines = Array.from({ length: 20 }, (_, j) => `line ${i}-${j} status=${j % 3}`);
      await putLines(t.env.store(`ing-${i % 2}`), T, { app: 'a' }, dayStart + i * 1000, lines);
    }
    // A replica's copy of chunk 0's first lines: read once.
    await putLines(t.env.store('ing-9'), T, { app: 'a' }, dayStart, ['line 0-0 status=0']);
    for (let i = 0; i < 2; i++) {
      await putLines(t.env.store('ing-0'), T, { app: 'b' }, dayStart + i * 500, [`b${i}`]);
    }
  }

  async function objects(): Promise<string[]> {
    return (await t.env.client.list(`${T}/chunks/`)).objects.map((o) => o.key);
  }

  it('merges small chunks into one; answers equal; the parts go after the delay', async () => {
    await smallFlushes();
    const reader = t.env.store('reader');
    const before = { a: await query(reader, 'a'), b: await query(reader, 'b') };
    expect(await chunkCount(reader, 'a')).toBe(9);
    const { compactor: c } = compactor();
    const s = await c.run();
    expect(s.smallChunksMerged).toBe(11);
    expect(s.mergedChunksWritten).toBe(2);
    expect(await chunkCount(reader, 'a')).toBe(1);
    expect(await chunkCount(reader, 'b')).toBe(1);
    expect(await query(reader, 'a')).toEqual(before.a);
    expect(await query(reader, 'b')).toEqual(before.b);
    // The parts stay for queries already running, until the delay is over.
    expect(await objects()).toHaveLength(11 + 2);
    t.now += 61_000;
    expect((await c.run()).chunksSwept).toBe(11);
    expect(await objects()).toHaveLength(2);
    // Nothing left to merge: the next run changes nothing.
    const again = await c.run();
    expect(again.smallChunksMerged).toBe(0);
    expect(again.filesMerged).toBe(0);
    expect(await query(reader, 'a')).toEqual(before.a);
  });

  it('writes merged chunks in the chunk format of their period', async () => {
    await putLines(t.env.store('i'), T, { app: 'a' }, dayStart, ['x']);
    await putLines(t.env.store('j'), T, { app: 'a' }, dayStart + 10, ['y']);
    const { compactor: comp, store } = compactor();
    // Wrap chunkFormatAt to ask for columnar, as a `chunk_format: columnar` period does.
    store.chunkFormatAt = () => 'columnar';
    await comp.run();
    const [series] = await store.getChunkRefs(T, [{ type: '=', name: 'app', value: 'a' }], 0n, END);
    expect(series.chunks).toHaveLength(1);
    expect(isColumnarChunk(await store.fetchChunk(T, series.chunks[0]))).toBe(true);
  });

  async function chunkRefs(store: ChunkStore, app: string) {
    const series = await store.getChunkRefs(T, [{ type: '=', name: 'app', value: app }], 0n, END);
    return series.flatMap((s) => s.chunks);
  }

  // A tight target: the merged chunk is no longer small, so it splits a run of its parts.
  for (const tight of [false, true]) {
    for (const step of ['afterChunksWritten', 'afterMergedWrite'] as const) {
      const what = step === 'afterChunksWritten' ? 'storing merged chunks' : 'writing the index';
      it(`a crash after ${what} loses and duplicates nothing (${tight ? 'tight' : 'roomy'} target)`, async () => {
        await smallFlushes();
        const reader = t.env.store('reader');
        const before = await query(reader, 'a');
        const parts = await chunkRefs(reader, 'a');
        const targetBytes = tight ? parts.reduce((n, c) => n + c.size, 0) : 64 * 1024;
        const smallChunks = { targetBytes };
        const crashing = compactor({
          smallChunks,
          [step]: () => Promise.reject(new Error('crash')),
        });
        await expect(crashing.compactor.run()).rejects.toThrow('crash');
        expect(await query(t.env.store('r2'), 'a')).toEqual(before);
        // The next run finishes the work; the merge repeated gives the same object.
        const { compactor: c } = compactor({ smallChunks });
        await c.run();
        const after = await chunkRefs(reader, 'a');
        expect(after).toHaveLength(1);
        if (tight) expect(after[0].size).toBeGreaterThanOrEqual(targetBytes / 4);
        expect(await query(t.env.store('r3'), 'a')).toEqual(before);
        t.now += 61_000;
        await c.run();
        expect(await query(t.env.store('r4'), 'a')).toEqual(before);
        // Every part is gone: the two merged chunks are all that is left.
        expect(await objects()).toHaveLength(2);
      });
    }
  }

  it('applies delete requests and retention before merging', async () => {
    await smallFlushes();
    const { compactor: c, api } = compactor({
      limits: () => ({
        retention_period: 0,
        retention_stream: [{ selector: '{app="b"}', priority: 1, period: DAY_MS }],
        deletion_mode: 'filter-and-delete',
      }),
    });
    await api.create(T, {
      query: '{app="a"} |= "status=1"',
      start: String(Math.floor(dayStart / 1000)),
      end: String(Math.floor((dayStart + 60_000) / 1000)),
    });
    t.now += 61_000;
    const before = (await query(t.env.store('r'), 'a')).filter((l) => !l.includes('status=1'));
    const s = await c.run();
    expect(s.chunksExpired).toBe(2);
    expect(await query(t.env.store('r'), 'a')).toEqual(before);
    expect(await query(t.env.store('r'), 'b')).toEqual([]);
    expect(await chunkCount(t.env.store('r'), 'a')).toBe(1);
  });
});
