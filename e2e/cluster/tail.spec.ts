import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EtcdServer, startEtcd } from '../../libs/ring/src/testing/etcd-server';
import { Cluster, type Member } from '../support/cluster';
import { LogcliTail } from '../support/logcli-tail';
import { nowNs } from '../support/loki-api';
import { eventually } from '../support/server';

async function push(distributor: Member, lines: string[]): Promise<void> {
  const t = nowNs();
  const res = await fetch(`${distributor.process.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      streams: lines.map((line, i) => ({
        stream: { app: 'tail-e2e', pod: `pod-${i % 4}` },
        values: [[String(t + BigInt(i)), line]],
      })),
    }),
  });
  if (res.status !== 204) throw new Error(`push → ${res.status}: ${await res.text()}`);
}

// A tail on the querier of a cluster (RF 3) reaches the three ingesters over gRPC streams and
// shows every line pushed through the distributor exactly once, past and live.
describe('tail in a cluster', () => {
  let etcd: EtcdServer;
  let cluster: Cluster;
  let distributor: Member;
  let querier: Member;

  beforeAll(async () => {
    etcd = await startEtcd();
    cluster = new Cluster({ etcd: etcd.endpoint, replicationFactor: 3 });
    for (const name of ['ingester-1', 'ingester-2', 'ingester-3'])
      await cluster.add(name, 'ingester');
    distributor = await cluster.add('distributor-1', 'distributor');
    querier = await cluster.add('querier-1', 'querier');
  }, 120_000);

  afterAll(async () => {
    await cluster?.dispose();
    await etcd?.stop();
  });

  it('sees each line pushed to 3 ingesters exactly once', async () => {
    await push(distributor, ['past 0', 'past 1']);
    const tail = await LogcliTail.open(querier.process.url, {
      query: '{app="tail-e2e"}',
      startNs: nowNs() - 600_000_000_000n,
      limit: 100,
    });
    const expected = ['past 0', 'past 1'];
    for (let round = 0; round < 5; round++) {
      const lines = Array.from({ length: 8 }, (_, i) => `live ${round}-${i}`);
      await push(distributor, lines);
      expected.push(...lines);
    }
    const lineOf = (printed: string) => printed.slice(printed.indexOf('} ') + 2);
    await eventually(
      async () => (tail.printed.length >= expected.length ? true : undefined),
      'every line',
      10_000,
    );
    // Replicas' late copies would show up now.
    await new Promise((r) => setTimeout(r, 500));
    const got = tail.printed.map(lineOf);
    expect([...got].sort()).toEqual([...expected].sort());
    expect(got.slice(0, 2)).toEqual(['past 0', 'past 1']);
    await tail.interrupt();
  });
});
