import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowNs, pushOk } from '../support/loki-api';
import { EtcdCluster, type Member } from '../support/cluster';

/**
 * The admin UI's tenant picker in a cluster: a tenant whose lines are only in an ingester's
 * memory (not flushed, so not in object storage) is listed by a process that runs no ingester.
 */
describe('the UI tenant suggestions in a cluster', () => {
  let cluster: EtcdCluster;
  let front: Member;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      extraFlags: ['-auth.enabled=true'],
    });
    await cluster.add('ingester-1', 'ingester');
    front = await cluster.add('front-1', 'distributor,querier,ui');
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it("lists the tenants in another process's ingester memory", async () => {
    await pushOk(
      front.process.url,
      [{ stream: { app: 'api' }, values: [[String(nowNs()), 'hello']] }],
      'in-memory-only',
    );
    const tenants = await fetch(`${front.process.url}/ui/api/tenants`, {
      headers: { 'X-Scope-OrgID': 'someone' },
    });
    expect(tenants.status).toBe(200);
    expect(await tenants.json()).toEqual({ tenants: ['in-memory-only'] });
  });
});
