// Loki's simple scalable deployment on one etcd ring: `-target=write`, `read` and `backend`
// processes, plus index gateways that queriers reach by address (`simple` mode) or through
// the index gateway ring (`ring` mode).
import type { RingStatus } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type ConfigTree, type Member } from '../support/cluster';
import { nowNs, pushOk } from '../support/loki-api';

const PODS = ['a', 'b', 'c'];
const LINES = 50;
const startNs = nowNs() - 120_000_000_000n;
const RANGE = `start=${startNs - 1_000_000_000n}&end=${nowNs() + 600_000_000_000n}`;

/** Every pushed entry as `pod line`, in push order. */
const pushed = PODS.flatMap((pod) =>
  Array.from({ length: LINES }, (_, i) => `${pod} line ${i} of ${pod}`),
);

/** The index and query reads compared between queriers (paths with their query strings). */
const READS = [
  `/loki/api/v1/labels?${RANGE}`,
  `/loki/api/v1/label/pod/values?${RANGE}`,
  `/loki/api/v1/series?match[]=${encodeURIComponent('{job="gw"}')}&${RANGE}`,
  `/loki/api/v1/index/stats?query=${encodeURIComponent('{job="gw"}')}&${RANGE}`,
  `/loki/api/v1/index/volume?query=${encodeURIComponent('{job="gw"}')}&${RANGE}`,
  `/loki/api/v1/query_range?query=${encodeURIComponent('{job="gw"} |= "line"')}&${RANGE}&limit=1000&direction=forward`,
];

/** A read's answer as JSON, without the per-request query statistics. */
async function read(member: Member, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${member.process.url}${path}`);
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, body: text };
  const json = JSON.parse(text) as { data?: { stats?: unknown } };
  if (json.data?.stats !== undefined) delete json.data.stats;
  return { status: 200, body: json };
}

/** The lines a query through `member` returns, as `pod line`, sorted. */
async function queriedLines(member: Member): Promise<string[]> {
  const { status, body } = await read(member, READS[5]);
  expect(status).toBe(200);
  const result = (
    body as { data: { result: Array<{ stream: { pod: string }; values: string[][] }> } }
  ).data.result;
  return result.flatMap((s) => s.values.map((v) => v[1])).sort();
}

describe('simple scalable targets and index gateways on one etcd ring', () => {
  let cluster: EtcdCluster;
  let write: Member;
  let readTarget: Member;
  let gateway: Member;
  let backend: Member;
  /** Queriers that read only the store, each through a different index reader. */
  let direct: Member;
  let viaGateway: Member;
  let viaBackend: Member;
  let viaRing: Member;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({ replicationFactor: 1 });
    write = await cluster.add('write-1', 'write');
    readTarget = await cluster.add('read-1', 'read');
    gateway = await cluster.add('index-gateway-1', 'index-gateway');
    backend = await cluster.add('backend-1', 'backend');
    const storeOnly = (extra: ConfigTree = {}): ConfigTree => ({
      querier: { query_store_only: true },
      ...extra,
    });
    const simple = (m: Member) =>
      storeOnly({
        storage_config: {
          tsdb_shipper: { index_gateway_client: { server_address: `127.0.0.1:${m.grpcPort}` } },
        },
      });
    direct = await cluster.add('querier-direct', 'querier', { config: storeOnly() });
    viaGateway = await cluster.add('querier-gateway', 'querier', { config: simple(gateway) });
    viaBackend = await cluster.add('querier-backend', 'querier', { config: simple(backend) });
    viaRing = await cluster.add('querier-ring', 'querier', {
      config: storeOnly({ index_gateway: { mode: 'ring' } }),
    });
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it('answers a query through -target=read with what was pushed to -target=write', async () => {
    const streams = PODS.map((pod, p) => ({
      stream: { job: 'gw', pod },
      values: Array.from({ length: LINES }, (_, i) => [
        String(startNs + BigInt(p * LINES + i) * 1_000_000n),
        `${pod} line ${i} of ${pod}`,
      ]),
    }));
    await pushOk(write.process.url, streams);
    // Not flushed: the read process finds the lines in the write process's ingester.
    expect(await queriedLines(readTarget)).toEqual([...pushed].sort());
    // Store-only queriers see nothing yet.
    expect(await queriedLines(direct)).toEqual([]);

    expect((await fetch(`${write.process.url}/flush`, { method: 'POST' })).status).toBe(204);
    // Flushed: the same lines once, from the ingester and the store together.
    expect(await queriedLines(readTarget)).toEqual([...pushed].sort());
    expect(await queriedLines(direct)).toEqual([...pushed].sort());
  });

  it('answers labels, series, stats, volume and queries through an index gateway (simple mode) as from the store', async () => {
    const expected = await Promise.all(READS.map((path) => read(direct, path)));
    for (const answer of expected) expect(answer.status).toBe(200);
    // Not trivially equal: the store answers hold the pushed data.
    expect(JSON.stringify(expected[1].body)).toContain('"c"');
    expect(JSON.stringify(expected[3].body)).toContain(`"entries":${PODS.length * LINES}`);
    for (const querier of [viaGateway, viaBackend]) {
      const got = await Promise.all(READS.map((path) => read(querier, path)));
      expect(got).toEqual(expected);
    }
  });

  it('finds index gateways through the ring in ring mode and answers the same', async () => {
    const res = await fetch(`${viaRing.process.url}/indexgateway/ring`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    const { shards } = (await res.json()) as RingStatus;
    expect(shards.map((s) => [s.id, s.state, s.address])).toEqual([
      ['backend-1', 'ACTIVE', `127.0.0.1:${backend.grpcPort}`],
      ['index-gateway-1', 'ACTIVE', `127.0.0.1:${gateway.grpcPort}`],
    ]);
    const expected = await Promise.all(READS.map((path) => read(direct, path)));
    expect(await Promise.all(READS.map((path) => read(viaRing, path)))).toEqual(expected);
    // A querier in simple mode has no use for that ring: no page.
    const simplePage = await fetch(`${viaGateway.process.url}/indexgateway/ring`);
    expect(simplePage.status).toBe(404);
    expect(await simplePage.text()).toBe('this process does not use the index-gateway ring\n');
  });

  it('really reads the index from the gateways: without them those queriers fail, the others answer', async () => {
    const labels = READS[0];
    expect(await gateway.process.stop()).toBe(0);
    expect((await read(viaGateway, labels)).status).toBeGreaterThanOrEqual(500);
    expect((await read(viaBackend, labels)).status).toBe(200);
    // The ring querier moves to the gateway left in the ring.
    expect((await read(viaRing, labels)).status).toBe(200);

    expect(await backend.process.stop()).toBe(0);
    expect((await read(viaBackend, labels)).status).toBeGreaterThanOrEqual(500);
    expect((await read(viaRing, labels)).status).toBeGreaterThanOrEqual(500);
    expect((await read(viaRing, READS[5])).status).toBeGreaterThanOrEqual(500);
    expect(await read(direct, labels)).toMatchObject({ status: 200 });
  });
});
