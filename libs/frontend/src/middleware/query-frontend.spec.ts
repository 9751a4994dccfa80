import { kindOf } from '@logsvc/errors';
import { DEFAULT_LIMITS, Overrides, type TenantLimits } from '@logsvc/config';
import { type QueryResult, resultEntryCount } from '@logsvc/api';
import { MemorySource, runQuery } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import { EmbeddedCache } from '@logsvc/storage';
import { ResultsCacheStore } from '../cache/results-cache';
import type { Downstream, SubQuery } from '../downstream';
import { memoryDownstream } from '../testing/memory-downstream';
import { AnswerCache, matrixCodec } from './answer-cache';
import { shardFactor } from './limits';
import { type FrontendQueryRequest, QueryFrontend } from './query-frontend';
import { alignStartEndToStep } from '../split/split';

/** Equal answers: the same series, points and entries; values within a relative 1e-9 (sums
 * of shards add in another order). */
function expectSame(actual: QueryResult, expected: QueryResult, what = ''): void {
  const round = (r: QueryResult): unknown =>
    JSON.parse(
      JSON.stringify(r, (_k, v: unknown) =>
        typeof v === 'bigint'
          ? v.toString()
          : typeof v === 'number' && !Number.isInteger(v)
            ? Number(v.toPrecision(10))
            : v,
      ),
    );
  expect(round(actual), what).toEqual(round(expected));
}

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;
const LEVELS = ['info', 'warn', 'error'];

/** 24 pods of two apps, a line per pod every 5 s for 10 minutes. */
function source(): MemorySource {
  const streams = [];
  for (let pod = 0; pod < 24; pod++) {
    const entries = [];
    for (let i = 0; i < 120; i++) {
      entries.push({
        timestampNs: T0 + BigInt(i) * 5n * S,
        line: `level=${LEVELS[(i + pod) % 3]} took=${(i * 7 + pod) % 50}ms`,
      });
    }
    streams.push({
      labels: [
        { name: 'app', value: pod % 2 === 0 ? 'api' : 'web' },
        { name: 'pod', value: `pod-${pod}` },
      ],
      entries,
    });
  }
  return new MemorySource(streams);
}

function overrides(extra: Partial<TenantLimits> = {}): Overrides {
  return new Overrides(
    {
      ...(DEFAULT_LIMITS as TenantLimits),
      split_queries_by_interval: 60_000,
      tsdb_max_query_parallelism: 4,
      max_cache_freshness_per_query: 0,
      ...extra,
    },
    { file: '', periodMs: 60_000 },
  );
}

function rangeRequest(
  query: string,
  extra: Partial<FrontendQueryRequest> = {},
): FrontendQueryRequest {
  return {
    kind: 'range',
    query,
    startNs: T0,
    endNs: T0 + 600n * S,
    stepNs: 15n * S,
    intervalNs: 0n,
    limit: 1000,
    direction: 'backward',
    tenants: ['team-a'],
    categorizeLabels: false,
    clientSignal: new AbortController().signal,
    ...extra,
  };
}

/** The unsplit, unsharded answer over the range the frontend evaluates (aligned to the step). */
async function unsplit(req: FrontendQueryRequest, src: MemorySource): Promise<QueryResult> {
  const aligned = req.query.startsWith('{')
    ? req
    : alignStartEndToStep(req.stepNs, req.startNs, req.endNs);
  const { result } = await runQuery({
    query: req.query,
    kind: req.kind,
    startNs: aligned.startNs,
    endNs: aligned.endNs,
    stepMs: Number(req.stepNs) / 1e6,
    limit: req.limit,
    direction: req.direction,
    tenants: req.tenants[0]!,
    source: src,
  });
  return result;
}

function frontendOver(src: MemorySource, sent: SubQuery[], extra: Partial<TenantLimits> = {}) {
  return new QueryFrontend({
    downstream: memoryDownstream(src, sent),
    overrides: overrides(extra),
    now: () => T0 + 100_000n * S,
    sharding: true,
    cache: new AnswerCache(new ResultsCacheStore(new EmbeddedCache(), matrixCodec())),
  });
}

describe('QueryFrontend', () => {
  const src = source();

  it('splits a sum by rate into minutes and shards each, with the unsplit answer', async () => {
    const sent: SubQuery[] = [];
    const req = rangeRequest('sum by (app) (rate({app=~".+"} | logfmt [1m]))');
    const answer = await frontendOver(src, sent).query(req);
    expectSame(answer.result, await unsplit(req, src));
    // The range aligned to the 15 s step (16:53:15 → 17:03:20) spans 11 minutes.
    expect(answer.stats.summary.splits).toBe(11);
    expect(sent).toHaveLength(44);
    expect(new Set(sent.map((s) => s.shard?.of))).toEqual(new Set([4]));
    expect(answer.stats.summary.subqueries).toBe(44);
    expect(answer.stats.summary.shards).toBe(44);
    // Every line read once over all sub-queries: 24 pods × 120 lines, plus the 1m lookback
    // of each split re-read by the next (Loki counts them the same way).
    expect(answer.stats.summary.totalLinesProcessed).toBeGreaterThanOrEqual(24 * 120);
  });

  it('answers the same query again from the results cache, without sub-queries', async () => {
    const sent: SubQuery[] = [];
    const frontend = frontendOver(src, sent);
    const req = rangeRequest('sum by (app) (count_over_time({app=~".+"}[1m]))');
    const cold = await frontend.query(req);
    const sentCold = sent.length;
    const warm = await frontend.query(req);
    expect(warm.result).toEqual(cold.result);
    expect(sent).toHaveLength(sentCold);
    expect(warm.resultCache.entriesFound).toBe(11);
    expect(warm.resultCache.entriesRequested).toBe(11);
    expect(cold.resultCache.entriesStored).toBe(11);
  });

  it('stops answering from entries cached before the cache generation changed (a delete request)', async () => {
    const sent: SubQuery[] = [];
    let generation = 'gen-1';
    const frontend = new QueryFrontend({
      downstream: memoryDownstream(src, sent),
      overrides: overrides(),
      now: () => T0 + 100_000n * S,
      sharding: true,
      cache: new AnswerCache(new ResultsCacheStore(new EmbeddedCache(), matrixCodec())),
      cacheGeneration: async () => generation,
    });
    const req = rangeRequest('sum(count_over_time({app="api"}[1m]))');
    await frontend.query(req);
    expect((await frontend.query(req)).resultCache.entriesFound).toBe(11);
    generation = 'gen-2';
    const after = await frontend.query(req);
    expect(after.resultCache.entriesFound).toBe(0);
    expect(after.stats.summary.totalLinesProcessed).toBeGreaterThan(0);
  });

  it('never answers one tenant from the cache another tenant filled', async () => {
    const sent: SubQuery[] = [];
    const frontend = frontendOver(src, sent);
    const query = 'sum(count_over_time({app="api"}[1m]))';
    await frontend.query(rangeRequest(query));
    const before = sent.length;
    const other = await frontend.query(rangeRequest(query, { tenants: ['team-b'] }));
    expect(other.resultCache.entriesFound).toBe(0);
    expect(sent.length).toBeGreaterThan(before);
  });

  it('computes only the new part of a range that overlaps a cached one', async () => {
    const sent: SubQuery[] = [];
    const frontend = frontendOver(src, sent);
    const query = 'sum(count_over_time({app="api"}[1m]))';
    await frontend.query(rangeRequest(query, { endNs: T0 + 300n * S }));
    sent.length = 0;
    const req = rangeRequest(query);
    const answer = await frontend.query(req);
    expectSame(answer.result, await unsplit(req, src));
    expect(answer.resultCache.entriesFound).toBeGreaterThan(0);
    expect(sent.every((s) => s.startNs >= T0 + 300n * S)).toBe(true);
  });

  it('shards avg by as a sum and a count, and evaluates topk over sharded sums', async () => {
    for (const query of [
      'avg by (app) (count_over_time({app=~".+"}[1m]))',
      'topk(2, sum by (pod) (rate({app=~".+"}[30s])))',
      'sum by (app) (rate({app="api"}[1m])) / sum by (app) (rate({app=~".+"}[1m]))',
      'max by (app) (max_over_time({app=~".+"} | logfmt | unwrap duration(took) [1m]))',
      'count(rate({app=~".+"}[1m])) * 2',
    ]) {
      const sent: SubQuery[] = [];
      const req = rangeRequest(query);
      const answer = await frontendOver(src, sent).query(req);
      expectSame(answer.result, await unsplit(req, src), query);
      expect(
        sent.some((s) => s.shard !== undefined),
        query,
      ).toBe(true);
    }
  });

  it('runs what cannot be sharded whole, split by time', async () => {
    const sent: SubQuery[] = [];
    const query =
      'quantile_over_time(0.9, {app=~".+"} | logfmt | unwrap duration(took) [1m]) by (app)';
    const req = rangeRequest(query);
    const answer = await frontendOver(src, sent).query(req);
    expectSame(answer.result, await unsplit(req, src));
    expect(sent.every((s) => s.shard === undefined)).toBe(true);
    expect(sent).toHaveLength(11);
  });

  it('stops sending a backward log query once the newest splits fill the limit', async () => {
    const sent: SubQuery[] = [];
    const req = rangeRequest('{app="api"} |= "error"', { limit: 20 });
    const answer = await frontendOver(src, sent, { max_query_parallelism: 1 }).query(req);
    expectSame(answer.result, await unsplit(req, src));
    expect(answer.stats.summary.splits).toBeLessThan(10);
    expect(Math.max(...sent.map((s) => Number(s.endNs - T0)))).toBe(Number(600n * S));
  });

  it('holds the answers of a log query’s splits to max_query_memory_bytes together', async () => {
    // Each split's answer is within any budget; ten of them at 10 KB a line are not.
    const query = '{app=~".+"} | line_format "{{ repeat 10000 \\"x\\" }}"';
    const limits = { max_query_memory_bytes: 8 << 20 };
    const frontend = frontendOver(src, [], limits);
    await expect(frontend.query(rangeRequest(query, { limit: 1000 }))).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('(limit: 8MiB, max_query_memory_bytes)'),
    });
    const small = await frontend.query(rangeRequest(query, { limit: 20 }));
    expect(resultEntryCount(small.result)).toBe(20);
  });

  it('fails the query with the first sub-query error, and cancels the others', async () => {
    const signals: AbortSignal[] = [];
    const failing: Downstream = {
      run: (sub, { signal }) => {
        signals.push(signal);
        if (sub.shard?.index === 1) {
          return Promise.reject(Object.assign(new Error('boom'), { name: 'SeriesLimitError' }));
        }
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      },
    };
    const frontend = new QueryFrontend({
      downstream: failing,
      overrides: overrides(),
      now: () => T0,
      sharding: true,
      cache: null,
    });
    await expect(frontend.query(rangeRequest('sum(rate({app="api"}[1m]))'))).rejects.toThrow(
      'boom',
    );
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('times out with Loki timeout error when sub-queries outlast query_timeout', async () => {
    const stuck: Downstream = {
      run: (_sub, { signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    };
    const frontend = new QueryFrontend({
      downstream: stuck,
      overrides: overrides({ query_timeout: 50 }),
      now: () => T0,
      sharding: true,
      cache: null,
    });
    const err = await frontend
      .query(rangeRequest('sum(rate({app="api"}[1m]))'))
      .catch((e: unknown) => e);
    expect(kindOf(err)).toBe('timeout');
  });

  it('tells the index bytes provider whether it sizes a log or a metric query', async () => {
    const asked: boolean[] = [];
    const sent: SubQuery[] = [];
    const frontend = new QueryFrontend({
      downstream: memoryDownstream(src, sent),
      overrides: overrides(),
      now: () => T0 + 100_000n * S,
      sharding: true,
      cache: null,
      // Metric queries get enough bytes for two shards per split, log queries none.
      indexBytes: async (_tenants, _selectors, _from, _through, logQuery) => {
        asked.push(logQuery);
        return logQuery ? 0 : 1e9;
      },
      parallelism: { workers: 2, minBytesPerShard: 1e8 },
    });
    await frontend.query(rangeRequest('sum(count_over_time({app="api"}[1m]))'));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((l) => !l)).toBe(true);
    expect(sent.every((s) => s.shard !== undefined)).toBe(true);
    asked.length = 0;
    sent.length = 0;
    await frontend.query(rangeRequest('{app="api"}'));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((l) => l)).toBe(true);
    expect(sent.every((s) => s.shard === undefined)).toBe(true);
  });
});

describe('QueryFrontend with coalesceSplits (sub-queries on one machine)', () => {
  const src = source();
  const aligned = alignStartEndToStep(15n * S, T0, T0 + 600n * S);

  function coalescing(sent: SubQuery[], sharding = true) {
    return new QueryFrontend({
      downstream: memoryDownstream(src, sent),
      overrides: overrides(),
      now: () => T0 + 100_000n * S,
      sharding,
      cache: new AnswerCache(new ResultsCacheStore(new EmbeddedCache(), matrixCodec())),
      parallelism: { workers: 2, minBytesPerShard: 1 },
      coalesceSplits: true,
    });
  }

  it('runs the 11 uncached splits as one range per shard, caches each split, and answers as unsplit', async () => {
    const sent: SubQuery[] = [];
    const frontend = coalescing(sent);
    const req = rangeRequest('sum by (app) (rate({app=~".+"} | logfmt [1m]))');
    const cold = await frontend.query(req);
    expectSame(cold.result, await unsplit(req, src));
    expect(cold.stats.summary.splits).toBe(11);
    expect(sent).toHaveLength(4);
    for (const sub of sent) {
      expect([sub.startNs, sub.endNs]).toEqual([aligned.startNs, aligned.endNs]);
      expect(sub.shard?.of).toBe(4);
    }
    expect(cold.resultCache.entriesStored).toBe(11);
    // Each split's entry holds its own points: a warm query is answered from them alone.
    const warm = await frontend.query(req);
    expect(sent).toHaveLength(4);
    expect(warm.resultCache.entriesFound).toBe(11);
    expect(warm.result).toEqual(cold.result);
  });

  it('computes only the splits the cache lacks, each run of touching ones together', async () => {
    const sent: SubQuery[] = [];
    const frontend = coalescing(sent);
    const query = 'sum by (app) (count_over_time({app=~".+"}[1m]))';
    // Minutes 3 to 5 first: then a run before them and a run after them are missing.
    await frontend.query(rangeRequest(query, { startNs: T0 + 180n * S, endNs: T0 + 299n * S }));
    sent.length = 0;
    const req = rangeRequest(query);
    const answer = await frontend.query(req);
    expectSame(answer.result, await unsplit(req, src));
    const ranges = new Set(sent.map((s) => `${s.startNs}-${s.endNs}`));
    expect(ranges.size).toBe(2);
    expect(sent).toHaveLength(8);
    // Neither run covers the cached minutes.
    expect(sent.every((s) => s.endNs <= T0 + 195n * S || s.startNs >= T0 + 285n * S)).toBe(true);
  });

  it('runs a log query unsplit: a bare selector as one sub-query, a filtered one per shard', async () => {
    for (const [query, subQueries] of [
      ['{app=~".+"}', 1],
      ['{app=~".+"} |= "level=error"', 4],
    ] as const) {
      const sent: SubQuery[] = [];
      const req = rangeRequest(query, { limit: 50 });
      const answer = await coalescing(sent).query(req);
      expectSame(answer.result, await unsplit(req, src), query);
      expect(sent, query).toHaveLength(subQueries);
      expect(sent.every((s) => s.startNs === req.startNs && s.endNs === req.endNs)).toBe(true);
      expect(answer.stats.summary.splits).toBe(1);
    }
  });

  it('without shards, cuts the splits into one range per worker', async () => {
    const sent: SubQuery[] = [];
    const req = rangeRequest('sum by (app) (count_over_time({app=~".+"}[1m]))');
    const answer = await coalescing(sent, false).query(req);
    expectSame(answer.result, await unsplit(req, src));
    expect(sent).toHaveLength(2);
    expect(sent[0]!.startNs).toBe(aligned.startNs);
    expect(sent[1]!.endNs).toBe(aligned.endNs);
    expect(sent[1]!.startNs).toBe(sent[0]!.endNs + 15n * S);
  });
});

describe('shardFactor', () => {
  const limits = {
    splitIntervalNs: 0n,
    maxQueryParallelism: 32,
    maxShards: 128,
    maxBytesPerShard: 600e6,
    maxCacheFreshnessMs: 0,
    maxMemoryBytes: 0,
  };
  it("follows Loki's bytes per shard, in powers of two", () => {
    expect(shardFactor(100e6, limits)).toBe(1);
    expect(shardFactor(1.3e9, limits)).toBe(4);
    expect(shardFactor(1e12, limits)).toBe(128);
  });
  it('gives each worker a shard when there is enough data for it', () => {
    const two = { workers: 2, minBytesPerShard: 16e6 };
    expect(shardFactor(300e6, limits, two)).toBe(2);
    expect(shardFactor(20e6, limits, two)).toBe(1);
    expect(shardFactor(300e6, limits, { workers: 3, minBytesPerShard: 16e6 })).toBe(4);
  });
});
