import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowNs, pushOk } from '../support/loki-api';
import { EtcdCluster, type Member } from '../support/cluster';

/** Logs Drilldown's calls in a cluster: the querier reads the ingesters through the ring. */
describe('detected fields and labels in a cluster (two ingesters, RF 2)', () => {
  let cluster: EtcdCluster;
  let ingester: Member;
  let querier: Member;
  const t0 = nowNs() - 60_000_000_000n;
  const range = () => ({ start: String(t0 - 1_000_000_000n), end: String(nowNs()) });

  beforeAll(async () => {
    cluster = await EtcdCluster.start({ replicationFactor: 2 });
    ingester = await cluster.add('ingester-1', 'ingester');
    await cluster.add('ingester-2', 'ingester');
    const distributor = await cluster.add('distributor-1', 'distributor');
    querier = await cluster.add('querier-1', 'querier');
    const values = [
      [String(t0), 'level=info user=alice status=200'],
      [String(t0 + 1n), 'level=warn user=bob status=404'],
      [String(t0 + 2n), '{"level":"error","user":"carol","latency":"15ms"}'],
    ];
    await pushOk(distributor.process.url, [{ stream: { app: 'api', shard: '7' }, values }]);
  }, 120_000);

  afterAll(() => cluster?.dispose());

  const get = (m: Member, path: string, params: Record<string, string>) =>
    fetch(`${m.process.url}${path}?${new URLSearchParams(params)}`);

  it('counts each entry once although two ingesters hold it', async () => {
    const res = await get(querier, '/loki/api/v1/detected_fields', {
      query: '{app="api"}',
      line_limit: '2',
      ...range(),
    });
    const body = (await res.json()) as { fields: Array<{ label: string; cardinality: number }> };
    // The two newest entries, not one entry twice.
    expect(body.fields.find((f) => f.label === 'user')).toMatchObject({ cardinality: 2 });
    expect(body.fields.map((f) => f.label)).toContain('latency');
  });

  it('lists detected labels and field values from the ring', async () => {
    const labels = await get(querier, '/loki/api/v1/detected_labels', range());
    expect(await labels.json()).toEqual({
      detectedLabels: [
        { label: 'app', cardinality: 1 },
        { label: 'service_name', cardinality: 1 },
      ],
    });
    const users = await get(querier, '/loki/api/v1/detected_field/user/values', {
      query: '{app="api"}',
      ...range(),
    });
    expect(await users.json()).toEqual({ limit: 1000, values: ['alice', 'bob', 'carol'] });
  });

  it('serves drilldown-limits on every target', async () => {
    const res = await get(ingester, '/loki/api/v1/drilldown-limits', {});
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ limits: { max_entries_limit_per_query: 5000 } });
  });
});
