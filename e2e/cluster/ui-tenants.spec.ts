import { type EtcdServer, startEtcd } from '@logsvc/ring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowNs } from '../support/loki-api';
import { Cluster, type Member } from '../support/cluster';

/**
 * The admin UI's tenant picker in a cluster: a tenant whose lines are only in an ingester's
 * memory (not flushed, so not in object storage) is listed by a process that runs no ingester.
 */
describe('the UI tenant suggestions in a cluster', () => {
  let etcd: EtcdServer;
  let cluster: Cluster;
  let front: Member;

  beforeAll(async () => {
    etcd = await startEtcd();
    cluster = new Cluster({
      etcd: etcd.endpoint,
      replicationFactor: 1,
      extraFlags: ['-auth.enabled=true'],
    });
    await cluster.add('ingester-1', 'ingester');
    front = await cluster.add('front-1', 'distributor,querier,ui');
  }, 120_000);

  afterAll(async () => {
    await cluster?.dispose();
    await etcd?.stop();
  });

  it("lists the tenants in another process's ingester memory", async () => {
    const res = await fetch(`${front.process.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Scope-OrgID': 'in-memory-only' },
      body: JSON.stringify({
        streams: [{ stream: { app: 'api' }, values: [[String(nowNs()), 'hello']] }],
      }),
    });
    expect(res.status).toBe(204);
    const tenants = await fetch(`${front.process.url}/ui/api/tenants`, {
      headers: { 'X-Scope-OrgID': 'someone' },
    });
    expect(tenants.status).toBe(200);
    expect(await tenants.json()).toEqual({ tenants: ['in-memory-only'] });
  });
});
