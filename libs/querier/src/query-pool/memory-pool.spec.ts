import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Labels, parseLabels, type ShardRef } from '@logsvc/api';
import { Overrides, defaultConfig } from '@logsvc/config';
import { DEFAULT_INGESTER_CONFIG, Ingester, LocalIngesterClient } from '@logsvc/ingester';
import type { RunQueryResult } from '@logsvc/logql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PoolMemorySettings, Querier } from '../querier';
import type { QueryRequest } from '../query-executor';
import { filesystemStore, filesystemStoreSettings } from '../testing/filesystem-store';
import { sameBothWays, statCounters } from '../testing/stat-counters';
import { QueryWorkerPool } from './query-worker-pool';
import { runPooledQuery } from './run-query';

const S = 1_000_000_000n;
const MIN = 60n * S;
const HOUR = 60n * MIN;
const NOW = 1_700_000_000n * S;
/** Two hours of data up to NOW: the first flushed (and still in memory), the second not. */
const FROM = NOW - 2n * HOUR;
const PODS = ['a', 'b', 'c', 'd'];
const LEVELS = ['info', 'warn', 'error'];
const WINDOW = {
  query_ingesters_within: 3 * 3600_000,
  query_store_only: false,
  query_ingester_only: false,
};

/** logfmt lines for app="api", JSON lines for app="web"; some entries with a trace_id. */
function batch(app: string, pod: string, fromNs: bigint, count: number, seed: number) {
  const entries = [];
  for (let i = 0; i < count; i++) {
    const n = seed + i;
    const level = LEVELS[n % 3];
    const latency = (n * 37) % 1000;
    const line =
      app === 'api'
        ? `level=${level} latency_ms=${latency} path=/items/${n % 50} msg="served ${n}"`
        : JSON.stringify({ level, latency_ms: latency, path: `/items/${n % 50}`, n });
    const sm: Labels = n % 5 === 0 ? [{ name: 'trace_id', value: `t${n % 7}` }] : [];
    // Some entries share a timestamp.
    entries.push({
      timestampNs: fromNs + BigInt(Math.floor(i / 2)) * 5n * S,
      line: Buffer.from(line),
      structuredMetadata: sm,
    });
  }
  return { labels: parseLabels(`{app="${app}", pod="${pod}"}`), entries };
}

async function pushRange(ingester: Ingester, fromNs: bigint, count: number, seed: number) {
  const streams = [];
  for (const app of ['api', 'web'])
    for (const pod of PODS) streams.push(batch(app, pod, fromNs, count, seed));
  await ingester.push('t', { streams });
}

function request(over: Partial<QueryRequest>): QueryRequest {
  return {
    kind: 'range',
    query: '{app=~".+"}',
    startNs: FROM,
    endNs: NOW,
    stepNs: 60n * S,
    intervalNs: 0n,
    limit: 300,
    direction: 'backward',
    tenants: ['t'],
    categorizeLabels: false,
    clientSignal: new AbortController().signal,
    ...over,
  };
}

// Each test starts worker threads that load the engine from its TypeScript sources (tsx), which
// takes seconds per thread on a loaded 2-core machine: the apps' 60 s budget, not the libs' 20 s.
describe('QueryWorkerPool over the in-process ingester', { timeout: 60_000 }, () => {
  let dir: string;
  let ingester: Ingester;
  let local = new LocalIngesterClient();
  let pool: QueryWorkerPool;
  const queriers: Querier[] = [];

  /** A querier over `ingesters`, reading memory in workers when they are the in-process one. */
  const newQuerier = (poolMemory: PoolMemorySettings | undefined, ingesters = local): Querier => {
    const querier = new Querier({
      store: filesystemStore(dir),
      ingesters,
      ...(ingesters === local ? { memory: local } : {}),
      window: WINDOW,
      overrides: new Overrides(defaultConfig().limits_config, { file: '', periodMs: 10_000 }),
      now: () => NOW,
      scanWorkers: -1,
      ...(poolMemory === undefined ? {} : { poolMemory }),
    });
    queriers.push(querier);
    return querier;
  };
  let querier: Querier;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-memory-pool-'));
    const store = filesystemStore(dir);
    ingester = new Ingester({
      config: {
        ...DEFAULT_INGESTER_CONFIG,
        // Small blocks and chunks: streams hold closed chunks, cut blocks and a head block.
        chunk_block_size: 4096,
        chunk_target_size: 16_384,
        // Flushed chunks stay in memory: queries read them from both, once.
        chunk_retain_period: 3600_000,
        wal: { ...DEFAULT_INGESTER_CONFIG.wal, enabled: false },
      },
      sink: {
        putChunks: async (tenant, chunks) => {
          await store.putChunks(tenant, chunks);
        },
      },
      backgroundLoops: false,
    });
    await ingester.start();
    local = new LocalIngesterClient(ingester);
    // The first hour flushed to the store, and kept in memory (retained): both hold it.
    await pushRange(ingester, FROM, 1440, 0);
    await ingester.flushAll();
    await pushRange(ingester, FROM + HOUR, 1400, 7);
    querier = newQuerier({ enabled: true, minBytes: 0 });
    pool = new QueryWorkerPool({ store: filesystemStoreSettings(dir), size: 2 });
  });

  afterAll(async () => {
    await pool.close();
    for (const q of queriers) await q.close();
    await ingester.shutdown({ flush: false });
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * `r` in the pool. Log queries over memory stay on the event loop (`poolQuery`), but the
   * workers answer them too: they get the pool query of a metric query with `r`'s text.
   */
  const inPool = async (r: QueryRequest): Promise<RunQueryResult> => {
    const metric = { ...r, query: 'count_over_time({app=~".+"}[1m])' };
    const base = await querier.poolQuery(r.query.startsWith('{') ? metric : r);
    if (base === null || base.window === undefined)
      throw new Error('should run in the pool over memory');
    return pool.run({ ...base, query: r.query }, r.clientSignal, querier.snapshots);
  };

  const bothWays = sameBothWays((r) => querier.query(r), inPool);

  const lineCount = (r: RunQueryResult): number =>
    r.result.type === 'streams' ? r.result.streams.reduce((n, s) => n + s.entries.length, 0) : 0;

  it('answers log queries over memory and store, both directions, as the main thread does', async () => {
    for (const direction of ['forward', 'backward'] as const) {
      const all = await bothWays(request({ direction, limit: 5000 }));
      expect(lineCount(all)).toBe(5000);
      // The whole overlap of memory and store: each entry once.
      const overlap = await bothWays(
        request({ direction, limit: 5000, query: '{app="api", pod="a"}', endNs: FROM + HOUR }),
      );
      expect(lineCount(overlap)).toBe(1440);
      expect(overlap.stats.querier.store.totalChunksDownloaded).toBeGreaterThan(0);
      expect(overlap.stats.ingester.totalChunksMatched).toBeGreaterThan(0);
      expect(all.stats.ingester.store.chunk.headChunkLines).toBeGreaterThan(0);
      await bothWays(
        request({ direction, query: '{app="web"} |= "warn" | json | latency_ms > 500' }),
      );
      const traced = await bothWays(
        request({ direction, limit: 1000, query: '{app="api"} | trace_id="t3"' }),
      );
      expect(lineCount(traced)).toBeGreaterThan(0);
    }
  });

  it('answers metric queries with parsers, range and instant, as the main thread does', async () => {
    const logfmt = await bothWays(
      request({ query: 'sum by (level) (count_over_time({app="api"} | logfmt [10m]))', limit: 0 }),
    );
    expect(logfmt.result.type).toBe('matrix');
    if (logfmt.result.type === 'matrix') expect(logfmt.result.series).toHaveLength(3);
    await bothWays(
      request({
        query:
          'quantile_over_time(0.9, {app="web"} | json | latency_ms > 500 | unwrap latency_ms [5m]) by (pod)',
        limit: 0,
      }),
    );
    const instant = await bothWays(
      request({
        kind: 'instant',
        query: 'sum by (level) (count_over_time({app=~".+"} | logfmt [3h]))',
        startNs: NOW,
        endNs: NOW,
        limit: 0,
      }),
    );
    if (instant.result.type === 'vector') {
      const total = instant.result.samples.reduce((n, s) => n + s.value, 0);
      // Every entry once, though the first hour is both in memory and in the store.
      expect(total).toBe(2 * PODS.length * (1440 + 1400));
    }
  });

  it('reads only the streams of a shard, as the main thread does', async () => {
    const shards: ShardRef[] = [0, 1, 2].map((index) => ({ index, of: 3 }));
    let total = 0;
    for (const shard of shards) {
      const r = await runPooledQuery(
        querier,
        pool,
        request({
          kind: 'instant',
          query: 'sum(count_over_time({app=~".+"}[3h]))',
          startNs: NOW,
          endNs: NOW,
          shard,
          limit: 0,
        }),
      );
      if (r.result.type === 'vector') total += r.result.samples[0]?.value ?? 0;
      await bothWays(
        request({ shard, query: 'sum by (pod) (rate({app="api"} | logfmt [5m]))', limit: 0 }),
      );
    }
    expect(total).toBe(2 * PODS.length * (1440 + 1400));
  });

  it('answers as before while entries are appended during the query', async () => {
    const r = request({
      query: 'sum by (level) (count_over_time({app=~".+"} | logfmt [5m]))',
      limit: 0,
    });
    const before = await querier.query(r);
    const running = inPool(r);
    // Newer than the query's range: cuts blocks and heads of the streams it reads meanwhile.
    const appends = (async () => {
      for (let k = 0; k < 5; k++)
        await pushRange(ingester, NOW + HOUR + BigInt(k) * MIN, 200, 3000 + k * 200);
    })();
    const [answer] = await Promise.all([running, appends]);
    expect(answer.result).toEqual(before.result);
    expect(statCounters((await querier.query(r)).stats)).toEqual(statCounters(answer.stats));
  });

  it('fails a query whose snapshot fails, and cancels one over memory', async () => {
    const r = request({ query: 'sum(count_over_time({app=~".+"} | logfmt [5m]))', limit: 0 });
    const query = await querier.poolQuery(r);
    const broken = () => {
      throw new Error('no memory today');
    };
    await expect(pool.run(query!, r.clientSignal, broken)).rejects.toThrow('no memory today');
    await expect(pool.run(query!, r.clientSignal)).rejects.toThrow('needs a memory source');
    const controller = new AbortController();
    const canceled = pool.run(query!, controller.signal, querier.snapshots);
    controller.abort();
    await expect(canceled).rejects.toMatchObject({ kind: 'canceled' });
    // The workers go on answering.
    const again = await pool.run(query!, r.clientSignal, querier.snapshots);
    expect(again.result).toEqual((await querier.query(r)).result);
  });

  it('keeps queries on the event loop without the switch, a local ingester, or enough bytes', async () => {
    const r = request({ query: 'sum(rate({app=~".+"} | logfmt [1m]))', limit: 0 });
    expect(querier.canRunInPool(r)).toBe(false);
    expect((await querier.poolQuery(r))?.window).toEqual(WINDOW);
    // A log query reads memory lazily here: it stays.
    expect(await querier.poolQuery(request({}))).toBeNull();
    expect(await newQuerier({ enabled: false, minBytes: 0 }).poolQuery(r)).toBeNull();
    expect(await newQuerier(undefined).poolQuery(r)).toBeNull();
    expect(await newQuerier({ enabled: true, minBytes: 1e12 }).poolQuery(r)).toBeNull();
    const tiny = newQuerier({ enabled: true, minBytes: 100_000 });
    expect(
      await tiny.poolQuery(
        request({ query: 'count_over_time({app="api", pod="a"}[1s])', startNs: NOW - MIN }),
      ),
    ).toBeNull();
    expect(
      await tiny.poolQuery(
        request({ query: 'count_over_time({app="api", pod="a"}[1h])', startNs: NOW - MIN }),
      ),
    ).not.toBeNull();
    const remote = { ...local, query: local.query.bind(local) };
    expect(
      await newQuerier({ enabled: true, minBytes: 0 }, remote as never).poolQuery(r),
    ).toBeNull();
    // What the query frontend adds to the index's bytes to shard such queries.
    const api = [{ type: '=' as const, name: 'app', value: 'api' }];
    expect(querier.poolMemoryBytes(['t'], api, FROM, NOW)).toBeGreaterThan(100_000);
    expect(querier.poolMemoryBytes(['t'], api, NOW - 6n * HOUR, NOW - 5n * HOUR)).toBe(0);
    expect(newQuerier({ enabled: false, minBytes: 0 }).poolMemoryBytes(['t'], api, FROM, NOW)).toBe(
      0,
    );
    // Store-only queries go to the pool as before, without a window.
    const old = await querier.poolQuery(
      request({ startNs: NOW - 6n * HOUR, endNs: NOW - 5n * HOUR }),
    );
    expect(old).not.toBeNull();
    expect(old?.window).toBeUndefined();
  });
});
