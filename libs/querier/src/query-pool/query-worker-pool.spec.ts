import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ShardRef, parseLabels } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import { DeleteRequestsStore, QueryDeletions } from '@logsvc/compactor';
import { Overrides, defaultConfig } from '@logsvc/config';
import type { LogsvcError } from '@logsvc/errors';
import { LocalIngesterClient } from '@logsvc/ingester';
import type { RunQueryResult } from '@logsvc/logql';
import { FilesystemObjectClient } from '@logsvc/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Querier } from '../querier';
import type { QueryRequest } from '../query-executor';
import {
  filesystemStore,
  filesystemStoreSettings,
  toStoredChunk,
} from '../testing/filesystem-store';
import { HOUR, MIN, NOW, S } from '../testing/clock';
import { sameBothWays } from '../testing/stat-counters';
import type { PoolQuery } from './pool-query';
import { QueryWorkerPool } from './query-worker-pool';
import { runPooledQuery } from './run-query';

/** The stored hour: older than query_ingesters_within (3h). */
const FROM = NOW - 6n * HOUR;
const LEVELS = ['info', 'warn', 'error'];
const PODS = ['a', 'b', 'c'];

/** Nine streams, an entry every 10 s for an hour, in two chunks each; some lines say "secret". */
async function storeStreams(dir: string): Promise<void> {
  const store = filesystemStore(dir);
  for (const level of LEVELS) {
    for (const pod of PODS) {
      const labels = parseLabels(`{app="api", level="${level}", pod="${pod}"}`);
      const chunks = [new MemChunk({ blockSize: 4096 }), new MemChunk({ blockSize: 4096 })];
      for (let i = 0; i < 360; i++) {
        const method = i % 3 === 0 ? 'GET' : 'POST';
        const line = `${method} /items/${i} level=${level} pod=${pod}${i % 17 === 0 ? ' secret' : ''}`;
        chunks[i < 180 ? 0 : 1].append(FROM + BigInt(i) * 10n * S, Buffer.from(line), []);
      }
      await store.putChunks(
        't',
        chunks.map((c) => toStoredChunk(labels, c)),
      );
    }
  }
}

function request(over: Partial<QueryRequest>): QueryRequest {
  return {
    kind: 'range',
    query: '{app="api"}',
    startNs: FROM - MIN,
    endNs: FROM + 2n * HOUR,
    stepNs: 30n * S,
    intervalNs: 0n,
    limit: 100,
    direction: 'backward',
    tenants: ['t'],
    categorizeLabels: false,
    clientSignal: new AbortController().signal,
    ...over,
  };
}

/** A metric query that takes half a second or more: 6000 steps of quantiles over 2 h windows. */
const SLOW = request({
  query:
    'sum by (level) (quantile_over_time(0.5, {app="api"} | regexp `/items/(?P<n>\\d+)` | unwrap n [2h]))',
  endNs: FROM + 100n * MIN,
  stepNs: S,
  limit: 0,
});

const failure = (p: Promise<unknown>): Promise<LogsvcError> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as LogsvcError,
  );

describe('QueryWorkerPool', () => {
  let dir: string;
  let querier: Querier;
  let pool: QueryWorkerPool;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-query-pool-'));
    await storeStreams(dir);
    const deleteRequests = new DeleteRequestsStore(new FilesystemObjectClient(join(dir, 'del')));
    await deleteRequests.put({
      requestId: 'aabbccdd',
      tenant: 't',
      query: '{app="api"} |= "secret"',
      createdAtMs: Number(FROM / 1_000_000n),
      parts: [
        {
          startMs: Number((FROM - HOUR) / 1_000_000n),
          endMs: Number((FROM + 2n * HOUR) / 1_000_000n),
          processed: false,
        },
      ],
    });
    const overrides = new Overrides(
      { ...defaultConfig().limits_config, max_query_series: 4, max_query_memory_bytes: 4 << 20 },
      { file: '', periodMs: 10_000 },
    );
    querier = new Querier({
      store: filesystemStore(dir),
      ingesters: new LocalIngesterClient(),
      window: {
        query_ingesters_within: 3 * 3600_000,
        query_store_only: false,
        query_ingester_only: false,
      },
      overrides,
      now: () => NOW,
      scanWorkers: -1,
      deletions: new QueryDeletions(deleteRequests, () => 'filter-and-delete'),
    });
    pool = new QueryWorkerPool({ store: filesystemStoreSettings(dir), size: 2 });
  });

  afterAll(async () => {
    await pool.close();
    await querier.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const inPool = async (r: QueryRequest): Promise<RunQueryResult> => {
    const query = await querier.poolQuery(r);
    if (query === null) throw new Error('the query should be allowed in the pool');
    return pool.run(query, r.clientSignal);
  };

  const bothWays = sameBothWays((r) => querier.query(r), inPool);

  const lines = (r: RunQueryResult): string[] =>
    r.result.type === 'streams' ? r.result.streams.flatMap((s) => s.entries.map((e) => e[1])) : [];

  it('answers log queries, backward and forward with limits, as the main thread does', async () => {
    const backward = await bothWays(request({ query: '{app="api"} |= "GET"', limit: 7 }));
    expect(lines(backward)).toHaveLength(7);
    expect(backward.stats.querier.store.totalChunksDownloaded).toBeGreaterThan(0);
    const forward = await bothWays(
      request({ query: '{app="api", level="error"}', direction: 'forward', limit: 500 }),
    );
    expect(lines(forward).length).toBeGreaterThan(400);
  });

  it('answers range and instant metric queries as the main thread does', async () => {
    const range = await bothWays(
      request({ query: 'sum by (level) (rate({app="api"}[1m]))', limit: 0 }),
    );
    expect(range.result.type).toBe('matrix');
    if (range.result.type === 'matrix') expect(range.result.series).toHaveLength(3);
    const instant = await bothWays(
      request({
        kind: 'instant',
        query: 'sum by (pod) (count_over_time({app="api"} |= "POST" [30m]))',
        startNs: FROM + 40n * MIN,
        endNs: FROM + 40n * MIN,
        limit: 0,
      }),
    );
    expect(instant.result.type).toBe('vector');
    if (instant.result.type === 'vector') expect(instant.result.samples).toHaveLength(3);
  });

  it('reads only the streams of a shard, as the main thread does', async () => {
    const shards: ShardRef[] = [0, 1, 2].map((index) => ({ index, of: 3 }));
    let streams = 0;
    let entries = 0;
    for (const shard of shards) {
      const logs = await bothWays(request({ limit: 5000, direction: 'forward', shard }));
      if (logs.result.type === 'streams') streams += logs.result.streams.length;
      const count = await bothWays(
        request({ query: 'sum(count_over_time({app="api"}[2h]))', kind: 'instant', shard }),
      );
      if (count.result.type === 'vector') entries += count.result.samples[0]?.value ?? 0;
    }
    expect(streams).toBe(9);
    expect(entries).toBe(9 * (360 - 22));
  });

  it('holds a worker thread’s query to max_query_memory_bytes, as the main thread', async () => {
    // 100 lines of 100 KB are 10 MB, over the tenant's 4 MiB.
    const big = request({ query: '{app="api"} | line_format "{{ repeat 100000 \\"x\\" }}"' });
    const here = await failure(querier.query(big));
    const there = await failure(inPool(big));
    expect([there.kind, there.httpStatus, there.message]).toEqual([
      here.kind,
      here.httpStatus,
      here.message,
    ]);
    expect(there.message).toContain('(limit: 4MiB, max_query_memory_bytes)');
    // The worker goes on answering.
    expect(lines(await inPool(request({ limit: 3 })))).toHaveLength(3);
  });

  it('fails like the main thread: max_query_series, a bad regex, a parse error', async () => {
    const tooMany = request({ query: 'count_over_time({app="api"}[1m])', limit: 0 });
    const here = await failure(querier.query(tooMany));
    const there = await failure(inPool(tooMany));
    expect([there.name, there.kind, there.httpStatus, there.message]).toEqual([
      here.name,
      here.kind,
      here.httpStatus,
      here.message,
    ]);
    expect(there.message).toContain('maximum of series (4) reached');

    for (const query of ['{app=~"("}', '{app="api"', 'sum(rate({app="api"}[1m])']) {
      const bad = request({ query });
      const mainErr = await failure(querier.query(bad));
      const poolErr = await failure(inPool(bad));
      expect([poolErr.name, poolErr.httpStatus, poolErr.message]).toEqual([
        mainErr.name,
        400,
        mainErr.message,
      ]);
    }
  });

  it('hides lines of delete requests in the workers too', async () => {
    const r = await bothWays(request({ query: '{app="api", pod="a"} |= "secret"', limit: 1000 }));
    expect(lines(r)).toEqual([]);
    const count = await bothWays(
      request({ query: 'sum(count_over_time({app="api"}[2h]))', kind: 'instant', limit: 0 }),
    );
    // 9 streams of 360 entries, minus the 22 deleted "secret" lines of each.
    if (count.result.type === 'vector') expect(count.result.samples[0].value).toBe(9 * (360 - 22));
  });

  it('keeps queries that need the ingesters out of the pool', async () => {
    expect(querier.canRunInPool(request({}))).toBe(true);
    const recent = request({ startNs: NOW - HOUR, endNs: NOW });
    expect(querier.canRunInPool(recent)).toBe(false);
    expect(await querier.poolQuery(recent)).toBeNull();
    // A metric query reads up to endNs inclusive: up to now - 3h exclusive stays in the store.
    const edge = request({ endNs: NOW - 3n * HOUR - 1n });
    expect(querier.canRunInPool(edge)).toBe(false);
    expect(querier.canRunInPool({ ...edge, endNs: NOW - 3n * HOUR - 2n })).toBe(true);
    const recentAnswer = await runPooledQuery(querier, pool, recent);
    expect(recentAnswer.result).toEqual((await querier.query(recent)).result);

    const windowed = (storeOnly: boolean, ingesterOnly: boolean) =>
      new Querier({
        store: filesystemStore(dir),
        ingesters: new LocalIngesterClient(),
        window: {
          query_ingesters_within: 3 * 3600_000,
          query_store_only: storeOnly,
          query_ingester_only: ingesterOnly,
        },
        overrides: new Overrides(defaultConfig().limits_config, { file: '', periodMs: 10_000 }),
        now: () => NOW,
        scanWorkers: -1,
      });
    // query_store_only: any range; query_ingester_only: none (the workers have no ingesters).
    expect(windowed(true, false).canRunInPool(recent)).toBe(true);
    expect(windowed(false, true).canRunInPool(request({}))).toBe(false);
  });

  it('runs many queries at once through the pool, queued in order', async () => {
    const rs = Array.from({ length: 8 }, (_, i) =>
      request({
        query: 'sum by (level) (rate({app="api"}[1m]))',
        startNs: FROM + BigInt(i) * 450n * S,
        endNs: FROM + BigInt(i + 1) * 450n * S,
        limit: 0,
      }),
    );
    const answers = await Promise.all(rs.map((r) => runPooledQuery(querier, pool, r)));
    for (let i = 0; i < rs.length; i++) {
      expect(answers[i].result).toEqual((await querier.query(rs[i])).result);
    }
    expect(pool.pending).toBe(0);
  });

  it('cancels a query when its signal aborts, queued or running', async () => {
    const controller = new AbortController();
    const r = request({ query: '{app="api"} |= "GET"', limit: 3, clientSignal: controller.signal });
    // More than the two workers take at once: some wait in the queue.
    const runs = Array.from({ length: 6 }, () => inPool(r));
    controller.abort();
    const errors = await Promise.all(runs.map(failure));
    for (const err of errors)
      expect([err.name, err.httpStatus]).toEqual(['QueryAbortedError', 499]);
    await bothWays(request({ query: '{app="api"} |= "GET"', limit: 3 }));
  });

  it('stops a canceled query in its worker: the next query does not wait for it', async () => {
    const single = new QueryWorkerPool({
      store: filesystemStoreSettings(dir),
      size: 1,
      queriesPerWorker: 1,
    });
    try {
      const slow = (await querier.poolQuery(SLOW)) as PoolQuery;
      const quick = (await querier.poolQuery(request({ limit: 1 }))) as PoolQuery;
      let started = performance.now();
      await single.run(slow, new AbortController().signal);
      const whole = performance.now() - started;

      const controller = new AbortController();
      const canceled = failure(single.run(slow, controller.signal));
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      started = performance.now();
      expect((await canceled).kind).toBe('canceled');
      // The one worker takes the next query once it has stopped the canceled one.
      await single.run(quick, new AbortController().signal);
      expect(performance.now() - started).toBeLessThan(whole / 2);
    } finally {
      await single.close();
    }
  });

  it('times a query out under the tenant’s query_timeout, as the main thread does', async () => {
    const hurried = new Querier({
      store: filesystemStore(dir),
      ingesters: new LocalIngesterClient(),
      window: { query_ingesters_within: 0, query_store_only: true, query_ingester_only: false },
      overrides: new Overrides(
        { ...defaultConfig().limits_config, query_timeout: 20 },
        { file: '', periodMs: 10_000 },
      ),
      now: () => NOW,
      scanWorkers: -1,
    });
    const here = await failure(hurried.query(SLOW));
    const there = await failure(pool.run((await hurried.poolQuery(SLOW))!, SLOW.clientSignal));
    expect([there.name, there.kind, there.httpStatus, there.message]).toEqual([
      here.name,
      'timeout',
      504,
      here.message,
    ]);
  });

  it('fails the queries of a worker that dies, and replaces the worker', async () => {
    const died: [string, string[]][] = [];
    const lonely = new QueryWorkerPool({
      store: filesystemStoreSettings(dir),
      size: 1,
      onWorkerDied: (why, queries) => died.push([why, queries.map((q) => q.query)]),
    });
    try {
      const query = (await querier.poolQuery(
        request({ query: 'sum by (pod) (count_over_time({app="api"}[1s]))', stepNs: S, limit: 0 }),
      )) as PoolQuery;
      const running = lonely.run(query, new AbortController().signal);
      const alsoRunning = lonely.run(query, new AbortController().signal);
      const waiting = lonely.run(query, new AbortController().signal);
      await killWorker(lonely);
      const errs = await Promise.all([running, alsoRunning].map(failure));
      for (const err of errs) {
        expect([err.name, err.httpStatus]).toEqual(['QueryWorkerExitedError', 503]);
        expect(err.message).toMatch(/query worker thread failed \(exited with code \d+\)/);
      }
      // The third waited in the queue: a new worker answers it.
      const answer = await waiting;
      expect(answer.result).toEqual((await querier.query(request(queryRequestOf(query)))).result);
      // The two that died with the worker were reported, once.
      expect(died).toHaveLength(1);
      expect(died[0]![1]).toEqual([query.query, query.query]);
    } finally {
      await lonely.close();
    }
  });

  it('does not keep a process alive once its queries are answered', async () => {
    // A script on the built library that never closes its pool: it must still exit by itself.
    const script = `
      const { QueryWorkerPool } = require('@logsvc/querier');
      const { defaultConfig } = require('@logsvc/config');
      const [settings, from] = [JSON.parse(process.argv[1]), BigInt(process.argv[2])];
      const pool = new QueryWorkerPool({ store: settings, size: 1 });
      const hour = 3600n * 1000000000n;
      pool.run({
        kind: 'range', query: '{app="api", pod="a"}', startNs: from, endNs: from + hour,
        stepNs: 1000000000n, intervalNs: 0n, limit: 5, direction: 'forward', tenants: ['t'],
        categorizeLabels: false, nowNs: from + 6n * hour,
        limits: new Map([['t', defaultConfig().limits_config]]), deletions: new Map(),
      }, new AbortController().signal).then((r) => console.log('streams', r.result.streams.length));
    `;
    const child = spawn(
      process.execPath,
      ['-e', script, JSON.stringify(filesystemStoreSettings(dir)), String(FROM)],
      { cwd: join(__dirname, '../../../..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise((resolve) =>
      child.once('exit', (c, signal) => resolve(c ?? signal)),
    );
    clearTimeout(timer);
    expect([code, out.trim()]).toEqual([0, 'streams 3']);
  });

  it('refuses queries once closed', async () => {
    const closing = new QueryWorkerPool({ store: filesystemStoreSettings(dir), size: 1 });
    const query = (await querier.poolQuery(request({}))) as PoolQuery;
    const pending = failure(closing.run(query, new AbortController().signal));
    await closing.close();
    const err = await pending;
    expect([err.name, err.httpStatus]).toEqual(['QueryPoolClosedError', 503]);
    await expect(closing.run(query, new AbortController().signal)).rejects.toThrow(
      'query worker pool is closed',
    );
  });
});

/** Terminates the pool's one worker while it runs queries (a crash, as the pool sees it). */
async function killWorker(pool: QueryWorkerPool): Promise<void> {
  const workers = (pool as unknown as { workers: { worker: { terminate(): Promise<number> } }[] })
    .workers;
  expect(workers).toHaveLength(1);
  await workers[0].worker.terminate();
}

function queryRequestOf(query: PoolQuery): Partial<QueryRequest> {
  const { nowNs: _n, limits: _l, deletions: _d, ...rest } = query;
  return rest;
}
