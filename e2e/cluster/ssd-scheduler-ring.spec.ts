// Simple scalable mode as the operator configures it: write, backend and read processes on one
// etcd, with `query_scheduler.use_scheduler_ring` so the read process's frontend queues on the
// backend's scheduler and its querier pulls from it, as Loki's read and backend targets do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowNs, pushOk } from '../support/loki-api';
import { EtcdCluster, type Member, ringPage } from '../support/cluster';

describe('simple scalable mode: read queries through the backend scheduler', () => {
  let cluster: EtcdCluster;
  let write: Member;
  let backend: Member;
  let read: Member;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      config: { query_scheduler: { use_scheduler_ring: true } },
    });
    write = await cluster.add('write-1', 'write');
    backend = await cluster.add('backend-1', 'backend');
    read = await cluster.add('read-1', 'read');
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it('finds the backend scheduler in the ring and answers reads through it', async () => {
    const { shards } = await ringPage(read, '/scheduler/ring');
    expect(shards.map((s) => [s.id, s.state])).toEqual([['backend-1', 'ACTIVE']]);
    const t0 = nowNs() - 60_000_000_000n;
    const values = Array.from({ length: 50 }, (_, i) => [
      String(t0 + BigInt(i) * 1_000_000n),
      `level=info n=${i}`,
    ]);
    await pushOk(write.process.url, [{ stream: { app: 'ssd' }, values }]);
    const params = new URLSearchParams({
      query: 'sum(count_over_time({app="ssd"}[5m]))',
      time: String(nowNs()),
    });
    const res = await fetch(`${read.process.url}/loki/api/v1/query?${params}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
    expect(body.data.result.map((r) => r.value[1])).toEqual(['50']);
    // With the backend (and its scheduler) gone, the read process has no queue to use.
    await backend.process.stop();
    const after = await fetch(`${read.process.url}/loki/api/v1/query?${params}`, {
      signal: AbortSignal.timeout(20_000),
    }).catch((err: Error) => err);
    expect(after instanceof Error || after.status >= 500).toBe(true);
  }, 60_000);
});
