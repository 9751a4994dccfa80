import { Overrides, defaultConfig } from '@logsvc/config';
import { type LogSource, MemorySource, type SelectParams } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import type { QuerySources } from './query-sources';
import { QueryAbortedError } from './errors';
import { QueryExecutor, type QueryRequest, prepareQuery } from './query-executor';

const NOW = 10_000n * 1_000_000_000n;

/** A source that answers only once the query is aborted, as a slow store would. */
const stalled: LogSource = {
  select: (params: SelectParams) =>
    new Promise((_, reject) => {
      params.signal?.addEventListener('abort', () => reject(params.signal?.reason));
    }),
};

function executor(source: LogSource, limits: Record<string, unknown> = {}) {
  const overrides = new Overrides(
    { ...defaultConfig().limits_config, ...limits },
    { file: '', periodMs: 10_000 },
  );
  return new QueryExecutor({ all: source } as QuerySources, overrides, () => NOW);
}

const request = (over: Partial<QueryRequest> = {}): QueryRequest => ({
  kind: 'range',
  query: '{app="api"}',
  startNs: NOW - 3_600_000_000_000n,
  endNs: NOW,
  stepNs: 14_000_000_000n,
  intervalNs: 0n,
  limit: 100,
  direction: 'backward',
  tenants: ['t'],
  categorizeLabels: false,
  clientSignal: new AbortController().signal,
  ...over,
});

describe('QueryExecutor', () => {
  it('stops a query at query_timeout with Loki’s 504 text', async () => {
    const sut = executor(stalled, { query_timeout: 50 });
    const err = await sut.run(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryAbortedError);
    expect((err as QueryAbortedError).httpStatus).toBe(504);
    expect((err as Error).message).toMatch(/^Request timed out, decrease the duration/);
  });

  it('stops a query whose client went away with 499', async () => {
    const client = new AbortController();
    const sut = executor(stalled, { query_timeout: 60_000 });
    const running = sut.run(request({ clientSignal: client.signal }));
    client.abort();
    const err = await running.catch((e: unknown) => e);
    expect((err as QueryAbortedError).httpStatus).toBe(499);
    expect((err as Error).message).toBe('The request was cancelled by the client.');
  });

  it('answers a range wholly older than max_query_lookback with an empty result', async () => {
    const source = new MemorySource([
      { labels: '{app="api"}', entries: [{ timestampNs: NOW - 7_200_000_000_000n, line: 'old' }] },
    ]);
    const sut = executor(source, { max_query_lookback: 60_000 });
    const old = await sut.run(
      request({ startNs: NOW - 9_000_000_000_000n, endNs: NOW - 7_000_000_000_000n }),
    );
    expect(old.result).toEqual({ type: 'streams', streams: [] });
    const metric = await sut.run(
      request({
        query: 'count_over_time({app="api"}[1h])',
        startNs: NOW - 9_000_000_000_000n,
        endNs: NOW - 7_000_000_000_000n,
      }),
    );
    expect(metric.result).toEqual({ type: 'matrix', series: [] });
  });

  describe('range metric queries run on multiples of the step, as behind Loki’s frontend', () => {
    const S = 1_000_000_000n;
    // one entry a second from 9 800 s to 10 030 s
    const source = new MemorySource([
      {
        labels: '{app="api"}',
        entries: Array.from({ length: 231 }, (_, i) => ({
          timestampNs: (9_800n + BigInt(i)) * S,
          line: `line ${i}`,
        })),
      },
    ]);
    const times = (r: Awaited<ReturnType<QueryExecutor['run']>>) =>
      r.result.type === 'matrix' ? r.result.series.flatMap((s) => s.points.map((p) => p[0])) : [];

    it('rounds the start down and the end up', async () => {
      const r = await executor(source).run(
        request({
          query: 'count_over_time({app="api"}[1m])',
          startNs: 9_907n * S,
          endNs: 9_990n * S + S / 2n,
          stepNs: 30n * S,
        }),
      );
      expect(times(r)).toEqual([9_900_000, 9_930_000, 9_960_000, 9_990_000, 10_020_000]);
    });

    it('uses the step in whole milliseconds', async () => {
      const r = await executor(source).run(
        request({
          query: 'count_over_time({app="api"}[1m])',
          startNs: 9_900n * S,
          endNs: 9_904n * S,
          stepNs: 1_500_700_000n,
        }),
      );
      expect(times(r)).toEqual([9_900_000, 9_901_500, 9_903_000, 9_904_500]);
    });

    it('leaves instant queries at their time', async () => {
      const r = await executor(source).run(
        request({ kind: 'instant', query: 'count_over_time({app="api"}[1m])', endNs: 9_907n * S }),
      );
      expect(r.result.type === 'vector' && r.result.samples.map((v) => v.timestampMs)).toEqual([
        9_907_000,
      ]);
    });
  });
});

describe('prepareQuery with query_range.align_queries_with_step', () => {
  const overrides = new Overrides(defaultConfig().limits_config, { file: '', periodMs: 10_000 });
  const S = 1_000_000_000n;
  const metric = request({
    query: 'count_over_time({app="api"}[1m])',
    startNs: 1007n * S,
    endNs: 1250n * S,
    stepNs: 60n * S,
  });

  it('rounds the end up to the step without it, as Loki’s split middleware does', () => {
    const prepared = prepareQuery(metric, overrides, NOW);
    expect(prepared.empty).toBe(false);
    if (prepared.empty) return;
    expect(prepared.bounds).toEqual({ startNs: 960n * S, endNs: 1260n * S, stepNs: 60n * S });
  });

  it('rounds the end down first with it, as Loki’s step_align middleware does', () => {
    const prepared = prepareQuery(metric, overrides, NOW, { alignQueriesWithStep: true });
    expect(prepared.empty).toBe(false);
    if (prepared.empty) return;
    expect(prepared.bounds).toEqual({ startNs: 960n * S, endNs: 1200n * S, stepNs: 60n * S });
  });
});

describe('prepareQuery with Loki limits on the query itself', () => {
  const limited = new Overrides(
    {
      ...defaultConfig().limits_config,
      max_query_range: 3_600_000,
      max_streams_matchers_per_query: 2,
    },
    { file: '', periodMs: 10_000 },
  );
  const errorOf = (over: Partial<QueryRequest>) => {
    try {
      prepareQuery(request(over), limited, NOW);
    } catch (err) {
      return {
        status: (err as { httpStatus?: number }).httpStatus,
        message: (err as Error).message,
      };
    }
    return undefined;
  };

  it('answers a range query over a window longer than max_query_range with Loki’s 500', () => {
    expect(errorOf({ query: 'count_over_time({app="api"}[2h])' })).toEqual({
      status: 500,
      message: '[interval] value exceeds limit: [2h] > [1h]',
    });
    expect(errorOf({ query: 'count_over_time({app="api"}[1h])' })).toBeUndefined();
    // Loki's frontend splits instant queries first, so each split is within the limit.
    expect(errorOf({ kind: 'instant', query: 'count_over_time({app="api"}[2h])' })).toBeUndefined();
  });

  it('refuses more stream matchers than max_streams_matchers_per_query with Loki’s 400', () => {
    expect(errorOf({ query: '{app="api", env="prod", zone="a"}' })).toEqual({
      status: 400,
      message: 'max streams matchers per query exceeded, matchers-count > limit (3 > 2)',
    });
    expect(errorOf({ query: 'rate({app="api", env="prod", zone="a"}[1m])' })?.status).toBe(400);
    expect(errorOf({ query: '{app="api", env="prod"}' })).toBeUndefined();
  });
});
