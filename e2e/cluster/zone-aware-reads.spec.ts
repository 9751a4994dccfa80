// Zone-aware reads, as dskit's: three ingesters in three zones (RF 3, zone awareness on). Right
// after one is killed -9, before its heartbeat expires, the ring still lists it ACTIVE and the
// querier asks it; its failure is within the one zone a read may lose, so the query answers
// every line from the other two zones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type Member, ringPage } from '../support/cluster';
import { nowNs, pushOk, queryRange } from '../support/loki-api';

const LINES = 30;

describe('zone-aware reads', () => {
  let cluster: EtcdCluster;
  const ingesters: Member[] = [];
  let distributor: Member;
  let querier: Member;
  const t0 = nowNs() - 60_000_000_000n;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 3,
      config: { common: { ring: { zone_awareness_enabled: true } } },
    });
    for (const zone of ['a', 'b', 'c'])
      ingesters.push(
        await cluster.add(`ingester-${zone}`, 'ingester', {
          config: { ingester: { lifecycler: { availability_zone: `zone-${zone}` } } },
        }),
      );
    distributor = await cluster.add('distributor-1', 'distributor');
    querier = await cluster.add('querier-1', 'querier');
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it('answers every line with one zone down that the ring still lists', async () => {
    await pushOk(distributor.process.url, [
      {
        stream: { app: 'zones' },
        values: Array.from({ length: LINES }, (_, i) => [String(t0 + BigInt(i)), `line ${i}`]),
      },
    ]);
    const query = { query: '{app="zones"}', start: t0 - 1n, end: nowNs(), limit: 1000 };
    const count = async () =>
      (await queryRange(querier.process.url, query)).reduce((n, s) => n + s.entries.length, 0);
    expect(await count()).toBe(LINES);

    await ingesters[0].process.kill9();
    const { shards } = await ringPage(querier, '/ring');
    expect(shards.find((s) => s.id === 'ingester-a')?.state).toBe('ACTIVE');
    expect(await count()).toBe(LINES);
  });
});
