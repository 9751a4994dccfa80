// One request must not take down the queriers of a cluster (issue 43, finding 2): a write
// process, a query scheduler, a query frontend and three queriers on one etcd ring, each
// querier with a 384 MB heap. Under the memory budget a query that would build gigabytes fails
// with a 400 on the querier that runs it, and every querier stays up. For a tenant whose budget
// is off, the query kills the querier running it; the scheduler hands it to one more querier,
// which dies too, and then answers the client with an error, logging the tenant and the query:
// the third querier is never given it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowNs, pushOk } from '../support/loki-api';
import { EtcdCluster, type Member } from '../support/cluster';
import { eventually } from '../support/server';

const MiB = 1024 * 1024;
const LINES = 3000;
const HEAP = { NODE_OPTIONS: '--max-old-space-size=384' };
/** A querier at rest is ~150 MB; the budget (64MiB here) and its garbage come on top. */
const MAX_QUERIER_PEAK_RSS = 900 * MiB;
const QUERY = '{app="x"} | line_format "{{ repeat 1000000 \\"x\\" }}"';

describe('query memory budget and bounded retries across queriers', () => {
  let cluster: EtcdCluster;
  let write: Member;
  let scheduler: Member;
  let frontend: Member;
  const queriers: Member[] = [];
  const end = nowNs() + 60_000_000_000n;
  const start = end - 3_600_000_000_000n;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      // Two tenants: the e2e servers' `-auth.enabled=false` would make both `fake`.
      extraFlags: ['-auth.enabled=true'],
      config: {
        query_scheduler: { use_scheduler_ring: true },
        querier: { max_concurrent: 2 },
        limits_config: { max_query_memory_bytes: '64MB', split_queries_by_interval: '0s' },
        query_range: { parallelise_shardable_queries: false },
      },
    });
    const overrides = join(cluster.root, 'overrides.yaml');
    writeFileSync(overrides, 'overrides:\n  reckless:\n    max_query_memory_bytes: 0\n');
    const runtime = { config: { runtime_config: { file: overrides } } };
    write = await cluster.add('write-1', 'write', runtime);
    scheduler = await cluster.add('scheduler-1', 'query-scheduler', runtime);
    frontend = await cluster.add('frontend-1', 'query-frontend', runtime);
    for (const name of ['querier-1', 'querier-2', 'querier-3'])
      queriers.push(await cluster.add(name, 'querier', { ...runtime, env: HEAP }));
    const t0 = nowNs() - 60_000_000_000n;
    for (const tenant of ['careful', 'reckless']) {
      const values = Array.from({ length: LINES }, (_, i) => [
        String(t0 + BigInt(i) * 1_000_000n),
        `level=info line ${i}`,
      ]);
      await pushOk(write.process.url, [{ stream: { app: 'x' }, values }], tenant);
    }
    // Every querier is connected to the scheduler before the first query.
    await eventually(
      async () => {
        const text = await (await fetch(`${scheduler.process.url}/metrics`)).text();
        const m = /^loki_query_scheduler_connected_querier_clients (\d+)/m.exec(text);
        return m !== null && Number(m[1]) >= 6 ? true : undefined;
      },
      'six querier connections on the scheduler',
      60_000,
    );
  }, 180_000);

  afterAll(() => cluster?.dispose());

  const query = (tenant: string): Promise<Response> =>
    fetch(
      `${frontend.process.url}/loki/api/v1/query_range?${new URLSearchParams({
        query: QUERY,
        limit: '5000',
        start: `${start}`,
        end: `${end}`,
      })}`,
      { headers: { 'x-scope-orgid': tenant } },
    );

  it('fails the query with a 400 naming the budget, and every querier stays up', async () => {
    const res = await query('careful');
    const body = await res.text();
    expect(res.status, body).toBe(400);
    expect(body).toContain('max_query_memory_bytes');
    for (const q of queriers) {
      expect(q.process.running, q.name).toBe(true);
      expect((await fetch(`${q.process.url}/ready`)).status).toBe(200);
      const peak = q.process.samplePeakRss()!;
      console.log(`${q.name}: peak RSS ${Math.round(peak / MiB)} MiB`);
      expect(peak).toBeLessThan(MAX_QUERIER_PEAK_RSS);
    }
  }, 60_000);

  it('without a budget, retries the query once after its querier died, then answers an error', async () => {
    const res = await query('reckless');
    const body = await res.text();
    expect(res.status, body).toBeGreaterThanOrEqual(500);
    expect(body).toContain('went away 2 times');
    // The scheduler sees a querier's stream close before this process sees it exit.
    const alive = await eventually(
      () => {
        const running = queriers.filter((q) => q.process.running);
        return Promise.resolve(running.length <= 1 ? running : undefined);
      },
      'the two queriers that ran the query have exited',
      30_000,
    );
    expect(alive.map((q) => q.name)).toHaveLength(1);
    expect((await fetch(`${alive[0]!.process.url}/ready`)).status).toBe(200);
    // The scheduler says which tenant and query did it.
    const log = scheduler.process.stderr();
    expect(log).toContain('not retrying it again');
    expect(log).toContain('"tenant":"reckless"');
    expect(log).toContain(JSON.stringify(QUERY).slice(1, -1));
  }, 120_000);
});
