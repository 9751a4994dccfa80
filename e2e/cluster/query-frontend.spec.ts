// The query frontend, the query scheduler and two queriers as separate processes on one etcd
// ring: reads through the frontend answer what a querier answers, a querier killed while it runs
// a query has its job run by the other one, and a tenant's full queue is a 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowNs, pushOk } from '../support/loki-api';
import { EtcdCluster, type Member, memberMetric, ringPage } from '../support/cluster';

const PODS = 8;
const LINES_PER_POD = 6_000;
const MAX_OUTSTANDING = 10;

interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}

async function get(member: Member, path: string, params: Record<string, string>) {
  const res = await fetch(`${member.process.url}${path}?${new URLSearchParams(params)}`);
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    body: await res.text(),
  };
}

/** A query answer without its per-request statistics, which differ between two runs. */
function resultOf(answer: Answer): unknown {
  expect(answer.status).toBe(200);
  const json = JSON.parse(answer.body) as {
    status: string;
    data: { resultType: string; result: unknown };
  };
  return { status: json.status, resultType: json.data.resultType, result: json.data.result };
}

describe('query frontend, query scheduler and querier workers in separate processes', () => {
  let cluster: EtcdCluster;
  let write: Member;
  let scheduler: Member;
  let frontend: Member;
  let queriers: Member[];
  const t0 = nowNs() - 10n * 60n * 1_000_000_000n;
  const end = String(nowNs() + 60n * 1_000_000_000n);
  const start = String(t0 - 1_000_000_000n);

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      config: {
        query_scheduler: {
          use_scheduler_ring: true,
          max_outstanding_requests_per_tenant: MAX_OUTSTANDING,
        },
        querier: { max_concurrent: 2 },
        limits_config: {
          ingestion_rate_mb: 1024,
          ingestion_burst_size_mb: 1024,
          per_stream_rate_limit: '512MB',
          per_stream_rate_limit_burst: '512MB',
          // Cache even the last minutes, so that a repeated query is answered from the cache.
          max_cache_freshness_per_query: '0s',
          // One job per query whatever the clock: the queue limits below count jobs.
          split_queries_by_interval: '0s',
        },
        query_range: { parallelise_shardable_queries: false },
      },
    });
    write = await cluster.add('write-1', 'write');
    scheduler = await cluster.add('scheduler-1', 'query-scheduler');
    frontend = await cluster.add('frontend-1', 'query-frontend');
    queriers = [
      await cluster.add('querier-1', 'querier'),
      await cluster.add('querier-2', 'querier'),
    ];

    // Enough lines that a regex query takes a while.
    for (let p = 0; p < PODS; p++) {
      const values = Array.from({ length: LINES_PER_POD }, (_, i) => [
        String(t0 + BigInt(i) * 40_000_000n + BigInt(p)),
        `level=${i % 3 === 0 ? 'error' : 'info'} pod=pod-${p} request=${i} path=/api/v${i % 7}/items status=${200 + (i % 5)}`,
      ]);
      await pushOk(write.process.url, [{ stream: { job: 'load', pod: `pod-${p}` }, values }]);
    }
  }, 180_000);

  afterAll(() => cluster?.dispose());

  it('finds the scheduler in the scheduler ring', async () => {
    const { shards } = await ringPage(frontend, '/scheduler/ring');
    expect(shards.map((s) => [s.id, s.state, s.address])).toEqual([
      ['scheduler-1', 'ACTIVE', `127.0.0.1:${scheduler.grpcPort}`],
    ]);
  });

  it('answers labels, values, series and queries through the frontend as a querier does', async () => {
    const reads: Array<[string, Record<string, string>]> = [
      ['/loki/api/v1/labels', { start, end }],
      ['/loki/api/v1/label/pod/values', { start, end }],
      ['/api/prom/label', { start, end }],
      ['/loki/api/v1/series', { 'match[]': '{job="load",pod="pod-3"}', start, end }],
    ];
    for (const [path, params] of reads) {
      const direct = await get(queriers[0], path, params);
      const through = await get(frontend, path, params);
      expect(direct.status).toBe(200);
      expect(through).toEqual(direct);
    }
    expect(JSON.parse((await get(frontend, '/loki/api/v1/labels', { start, end })).body)).toEqual({
      status: 'success',
      data: ['job', 'pod', 'service_name'],
    });

    const queries: Record<string, string>[] = [
      { query: '{job="load", pod="pod-1"} |= "level=error"', limit: '50', start, end },
      {
        query: 'sum by (pod) (count_over_time({job="load"} |= "status=201" [1m]))',
        start,
        end,
        step: '60',
      },
    ];
    for (const params of queries) {
      const direct = await get(queriers[1], '/loki/api/v1/query_range', params);
      const through = await get(frontend, '/loki/api/v1/query_range', params);
      expect(through.contentType).toBe(direct.contentType);
      expect(resultOf(through)).toEqual(resultOf(direct));
    }
    // The frontend split the metric query and, asked again, answered it from its cache.
    const again = JSON.parse(
      (await get(frontend, '/loki/api/v1/query_range', queries[1])).body,
    ) as {
      data: {
        stats: {
          summary: { splits: number; subqueries: number };
          cache: { result: { entriesFound: number; queryLengthServed: number } };
        };
      };
    };
    expect(again.data.stats.summary.splits).toBeGreaterThanOrEqual(1);
    expect(again.data.stats.cache.result.entriesFound).toBe(again.data.stats.summary.splits);
    // Only what is newer than the cache's cut-off (now) is computed again.
    expect(again.data.stats.cache.result.queryLengthServed).toBeGreaterThan(0);
    const logs = resultOf(await get(frontend, '/loki/api/v1/query_range', queries[0])) as {
      result: Array<{ values: unknown[] }>;
    };
    expect(logs.result.flatMap((s) => s.values)).toHaveLength(50);

    // A bad query is the querier's 400, passed back unchanged.
    const bad = { query: '{job="load"', start, end };
    const direct = await get(queriers[0], '/loki/api/v1/query_range', bad);
    expect(direct.status).toBe(400);
    expect(await get(frontend, '/loki/api/v1/query_range', bad)).toEqual(direct);
  });

  it('cuts labels, values and series by split_metadata_queries_by_interval (a day) and answers as unsplit', async () => {
    const DAY_NS = 86_400n * 1_000_000_000n;
    const longStart = String(t0 - 3n * DAY_NS);
    const days = Number(BigInt(end) / DAY_NS - BigInt(longStart) / DAY_NS) + 1;
    const enqueued = () =>
      memberMetric(scheduler, 'loki_query_scheduler_enqueue_count', { user: 'fake', level: '0' });
    const reads: Array<[string, Record<string, string>]> = [
      ['/loki/api/v1/labels', { start: longStart, end }],
      ['/loki/api/v1/label/pod/values', { start: longStart, end }],
      ['/api/prom/label', { start: longStart, end }],
      ['/loki/api/v1/series', { 'match[]': '{job="load",pod=~"pod-[35]"}', start: longStart, end }],
    ];
    for (const [path, params] of reads) {
      const direct = await get(queriers[0], path, params);
      const before = await enqueued();
      const through = await get(frontend, path, params);
      expect(await enqueued(), path).toBe((before ?? 0) + days);
      expect(direct.status).toBe(200);
      const sorted = (body: string) => {
        const json = JSON.parse(body) as { data?: Record<string, string>[] };
        if (path.endsWith('/series')) json.data?.sort((a, b) => (a.pod! < b.pod! ? -1 : 1));
        return json;
      };
      expect(through.status).toBe(200);
      expect(sorted(through.body), path).toEqual(sorted(direct.body));
    }
  });

  it('answers every query when a querier is killed while it runs them', async () => {
    const params = (i: number) => ({
      query: `sum by (pod) (count_over_time({job="load"} |~ "request=[0-9]*${i % 10}[0-9]* path=.*v[135]" [5m]))`,
      start,
      end,
      step: '300',
    });
    // Fewer than max_outstanding_requests_per_tenant, so that none is refused.
    const count = 8;
    const expected = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        get(queriers[1], '/loki/api/v1/query_range', params(i)),
      ),
    );
    const answers = Array.from({ length: count }, (_, i) =>
      get(frontend, '/loki/api/v1/query_range', params(i)),
    );
    // Both queriers are busy while the queue holds jobs: the killed one holds one.
    await new Promise((r) => setTimeout(r, 300));
    await queriers[0].process.kill9();
    const got = await Promise.all(answers);
    for (let i = 0; i < count; i++) {
      expect(got[i].status).toBe(200);
      expect(resultOf(got[i])).toEqual(resultOf(expected[i]));
    }
    // The scheduler saw the killed querier's connection end while it held a job.
    expect(scheduler.process.stderr()).toContain('querier connection ended while it ran a job');
  });

  it('refuses a tenant over max_outstanding_requests_per_tenant with 429', async () => {
    const flood = Array.from({ length: MAX_OUTSTANDING * 4 }, () =>
      get(frontend, '/loki/api/v1/query_range', {
        query: 'count_over_time({job="load", pod=~"pod-[12]"} |~ "request=.*7.*path" [1m])',
        start,
        end,
        step: '60',
      }),
    );
    const answers = await Promise.all(flood);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].body).toBe('too many outstanding requests');
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(MAX_OUTSTANDING);

    // The scheduler counted them under Loki's names.
    const metric = (name: string, labels: Record<string, string> = {}) =>
      memberMetric(scheduler, `loki_query_scheduler_${name}`, labels);
    const user = { user: 'fake' };
    expect(await metric('discarded_requests_total', user)).toBe(refused.length);
    expect(await metric('enqueue_count', { ...user, level: '0' })).toBeGreaterThanOrEqual(
      answers.length - refused.length,
    );
    expect(await metric('queue_duration_seconds_count')).toBeGreaterThan(0);
    expect(await metric('queue_length', user)).toBe(0);
    expect(await metric('connected_querier_clients')).toBeGreaterThan(0);
  });
});
