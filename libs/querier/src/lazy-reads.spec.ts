import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLabels } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import {
  type Direction,
  type LogSource,
  MemorySource,
  type SelectParams,
  combineSources,
  runQuery,
} from '@logsvc/logql';
import { type ChunkRef, ChunkStore } from '@logsvc/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkScanPool } from './scan-pool';
import { StoreLogSource } from './store-source';
import { filesystemStoreOptions, toStoredChunk } from './testing/filesystem-store';

/** A chunk store on the filesystem that counts the chunks it fetches. */
class CountingStore extends ChunkStore {
  fetched = 0;

  override fetchChunks(tenant: string, refs: readonly ChunkRef[], concurrency?: number) {
    this.fetched += refs.length;
    return super.fetchChunks(tenant, refs, concurrency);
  }
}

function countingStore(dir: string): CountingStore {
  return new CountingStore(filesystemStoreOptions(dir));
}

/** The same source, reading every chunk before it answers (as metric queries do). */
const eager = (source: StoreLogSource): LogSource => ({
  select: ({ limit: _limit, ...params }: SelectParams) => source.select(params),
});

const S = 1_000_000_000n;
const DAY_START = 1_700_000_000n * S;
const STREAMS = 3;
const CHUNKS_PER_STREAM = 80;
const ENTRIES_PER_CHUNK = 40;
/** Each stream's chunks follow each other over a day; the streams' entries interleave. */
const CHUNK_SPAN = (24n * 3600n * S) / BigInt(CHUNKS_PER_STREAM);

describe('lazy chunk reads of log queries', () => {
  let dir: string;
  let store: CountingStore;
  const pool = new ChunkScanPool({ size: 2 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-lazy-'));
    store = countingStore(dir);
    for (let s = 0; s < STREAMS; s++) {
      const labels = parseLabels(`{app="a${s}"}`);
      const chunks = [];
      for (let k = 0; k < CHUNKS_PER_STREAM; k++) {
        const c = new MemChunk();
        const start = DAY_START + BigInt(k) * CHUNK_SPAN;
        for (let e = 0; e < ENTRIES_PER_CHUNK; e++) {
          // Every stream has an entry at some timestamps (ties across streams).
          const ts = start + (BigInt(e) * CHUNK_SPAN) / BigInt(ENTRIES_PER_CHUNK) + BigInt(s % 2);
          const word = e % 7 === 0 ? 'needle' : 'hay';
          c.append(ts, Buffer.from(`s=${s} chunk=${k} entry=${e} ${word}`), []);
        }
        chunks.push(toStoredChunk(labels, c));
      }
      await store.putChunks('t', chunks);
    }
  });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (source: LogSource, query: string, direction: Direction, limit = 100) => {
    store.fetched = 0;
    const answer = await runQuery({
      query,
      kind: 'range',
      startNs: DAY_START,
      endNs: DAY_START + 24n * 3600n * S,
      limit,
      direction,
      tenants: 't',
      source,
    });
    return { result: answer.result, fetched: store.fetched, stats: answer.stats };
  };

  it('fetches only the newest chunks for a backward limit=100 query, with the same entries', async () => {
    const source = new StoreLogSource(store, { lazyBatchSize: 4 });
    const lazy = await run(source, '{app=~"a.+"}', 'backward');
    const full = await run(eager(source), '{app=~"a.+"}', 'backward');
    expect(full.fetched).toBe(STREAMS * CHUNKS_PER_STREAM);
    expect(lazy.fetched).toBeLessThanOrEqual(16);
    expect(lazy.stats.querier.store.totalChunksDownloaded).toBe(lazy.fetched);
    expect(lazy.stats.querier.store.totalChunksRef).toBe(STREAMS * CHUNKS_PER_STREAM);
    expect(lazy.result).toEqual(full.result);
    const streams = lazy.result.type === 'streams' ? lazy.result.streams : [];
    expect(streams.reduce((n, s) => n + s.entries.length, 0)).toBe(100);
  });

  it('reads forward from the oldest chunks the same way', async () => {
    const source = new StoreLogSource(store, { lazyBatchSize: 4 });
    const lazy = await run(source, '{app=~"a.+"}', 'forward');
    const full = await run(eager(source), '{app=~"a.+"}', 'forward');
    expect(lazy.fetched).toBeLessThanOrEqual(16);
    expect(lazy.result).toEqual(full.result);
  });

  it('searches batches on the scan pool for a line filter and gives the same entries', async () => {
    const options = { pool, poolBatchBytes: 20_000, minPoolChunks: 2, minPoolBytes: 0 };
    const source = new StoreLogSource(store, options);
    for (const direction of ['backward', 'forward'] as const) {
      const lazy = await run(source, '{app=~"a.+"} |= "needle"', direction, 300);
      const full = await run(
        eager(new StoreLogSource(store)),
        '{app=~"a.+"} |= "needle"',
        direction,
        300,
      );
      expect(lazy.fetched).toBeLessThan(STREAMS * CHUNKS_PER_STREAM);
      expect(lazy.result).toEqual(full.result);
    }
  });

  it('prefilters on an alternation of literals (`|~ "a|b"`) with the entries of no prefilter', async () => {
    const unfiltered = (source: LogSource): LogSource => ({
      select: ({ lineContainsAny: _any, ...params }: SelectParams) => source.select(params),
    });
    const withPool = { pool, poolBatchBytes: 20_000, minPoolChunks: 2, minPoolBytes: 0 };
    const queries = [
      '{app=~"a.+"} |~ "needle|entry=3 "',
      '{app=~"a.+"} |= "chunk=7 " or "entry=39 "',
      '{app=~"a.+"} |~ "chunk=7 |entry=39 |entry=3" != "s=1"',
    ];
    for (const query of queries) {
      for (const direction of ['backward', 'forward'] as const) {
        const want = await run(unfiltered(eager(new StoreLogSource(store))), query, direction, 500);
        for (const options of [{ lazyBatchSize: 4 }, withPool]) {
          const lazy = await run(new StoreLogSource(store, options), query, direction, 500);
          expect(lazy.result).toEqual(want.result);
        }
        const full = await run(eager(new StoreLogSource(store)), query, direction, 500);
        expect(full.result).toEqual(want.result);
      }
      const metric = `sum by (app) (count_over_time(${query} [1h]))`;
      const want = await run(unfiltered(new StoreLogSource(store)), metric, 'forward');
      const got = await run(new StoreLogSource(store), metric, 'forward');
      expect(got.result).toEqual(want.result);
      expect(got.result.type === 'matrix' && got.result.series.length).toBeGreaterThan(0);
    }
  });

  it('merges with another source holding copies of some entries, as the eager read does', async () => {
    // What an ingester may still hold after a flush: copies of the newest chunk's entries of
    // stream a0, and entries newer than any chunk.
    const last = CHUNKS_PER_STREAM - 1;
    const start = DAY_START + BigInt(last) * CHUNK_SPAN;
    const entries = [];
    for (let e = ENTRIES_PER_CHUNK - 10; e < ENTRIES_PER_CHUNK + 5; e++) {
      const ts = start + (BigInt(e) * CHUNK_SPAN) / BigInt(ENTRIES_PER_CHUNK);
      const word = e % 7 === 0 ? 'needle' : 'hay';
      entries.push({ timestampNs: ts, line: `s=0 chunk=${last} entry=${e} ${word}` });
    }
    const memory = new MemorySource([{ labels: '{app="a0"}', entries }]);
    const source = new StoreLogSource(store, { lazyBatchSize: 3 });
    for (const direction of ['backward', 'forward'] as const) {
      const lazy = await run(combineSources(source, memory), '{app=~"a.+"}', direction);
      const full = await run(combineSources(eager(source), memory), '{app=~"a.+"}', direction);
      expect(lazy.result).toEqual(full.result);
      expect(lazy.stats.querier.store.chunk.totalDuplicates).toBe(
        full.stats.querier.store.chunk.totalDuplicates,
      );
    }
  });

  it('reads everything when the limit is above what the range holds', async () => {
    const source = new StoreLogSource(store, { lazyBatchSize: 5 });
    const all = STREAMS * CHUNKS_PER_STREAM * ENTRIES_PER_CHUNK;
    const lazy = await run(source, '{app=~"a.+"}', 'backward', all + 1);
    const full = await run(eager(source), '{app=~"a.+"}', 'backward', all + 1);
    expect(lazy.fetched).toBe(STREAMS * CHUNKS_PER_STREAM);
    expect(lazy.result).toEqual(full.result);
  });
});
