import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type Member } from '../support/cluster';
import { LogcliTail } from '../support/logcli-tail';
import { nowNs, pushOk } from '../support/loki-api';
import { eventually } from '../support/server';

async function push(distributor: Member, lines: string[]): Promise<void> {
  const t = nowNs();
  await pushOk(
    distributor.process.url,
    lines.map((line, i) => ({
      stream: { app: 'tail-e2e', pod: `pod-${i % 4}` },
      values: [[String(t + BigInt(i)), line]],
    })),
  );
}

// A tail on the querier of a cluster (RF 3) reaches the three ingesters over gRPC streams and
// shows every line pushed through the distributor exactly once, past and live.
describe('tail in a cluster', () => {
  let cluster: EtcdCluster;
  let distributor: Member;
  let querier: Member;
  /** A second querier that allows one tail per tenant. */
  let strictQuerier: Member;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({ replicationFactor: 3 });
    for (const name of ['ingester-1', 'ingester-2', 'ingester-3'])
      await cluster.add(name, 'ingester');
    distributor = await cluster.add('distributor-1', 'distributor');
    querier = await cluster.add('querier-1', 'querier');
    strictQuerier = await cluster.add('querier-2', 'querier', {
      config: { limits_config: { max_concurrent_tail_requests: 1 } },
    });
  }, 120_000);

  afterAll(() => cluster?.dispose());

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

  it("counts a tenant's tails across queriers, as the ingesters hold them", async () => {
    const opts = { query: '{app="tail-e2e"}', startNs: nowNs() - 600_000_000_000n, limit: 1 };
    const first = await LogcliTail.open(querier.process.url, opts);
    // The past line arrives once the tail is subscribed on the ingesters.
    await eventually(
      async () => (first.printed.length > 0 ? true : undefined),
      'the first tail',
      10_000,
    );

    // querier-2 has no tail open itself; the ingesters hold querier-1's.
    const refused = await LogcliTail.open(strictQuerier.process.url, opts);
    expect(await refused.closed).toEqual({
      code: 1011,
      reason:
        'rpc error: code = Code(400) desc = max concurrent tail requests limit exceeded, count > limit (2 > 1)',
    });

    await first.interrupt();
    // Once the ingesters have let go of it, querier-2 keeps a tail open.
    await eventually(
      async () => {
        const tail = await LogcliTail.open(strictQuerier.process.url, opts);
        const outcome = await Promise.race([
          tail.closed.then(() => 'closed'),
          new Promise((r) => setTimeout(() => r('open'), 500)),
        ]);
        if (outcome === 'closed') return undefined;
        await tail.interrupt();
        return true;
      },
      'a tail on querier-2',
      10_000,
    );
  });
});
