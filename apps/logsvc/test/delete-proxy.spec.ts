import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';

const TENANT = { 'X-Scope-OrgID': 'team-a' };

describe('the delete API without the compactor, forwarded to common.compactor_address', () => {
  let compactor: TestServer;
  let querier: TestServer;

  beforeAll(async () => {
    compactor = await startTestServer({
      config: { compactor: { retention_enabled: true, delete_request_store: 'filesystem' } },
    });
    querier = await startTestServer({
      config: {
        target: 'distributor,ingester,querier',
        common: { compactor_address: compactor.url },
      },
    });
  });
  afterAll(async () => {
    await querier?.close();
    await compactor?.close();
  });

  it('creates and lists delete requests at the compactor through the querier', async () => {
    const params = new URLSearchParams({
      query: '{app="api"}',
      start: String(Math.floor(Date.now() / 1000) - 3600),
    });
    const created = await fetch(`${querier.url}/loki/api/v1/delete?${params}`, {
      method: 'POST',
      headers: TENANT,
    });
    expect(created.status).toBe(204);
    const listed = await fetch(`${querier.url}/loki/api/v1/delete`, { headers: TENANT });
    expect(listed.status).toBe(200);
    const requests = (await listed.json()) as Array<{ query: string }>;
    expect(requests.map((r) => r.query)).toEqual(['{app="api"}']);
    // The compactor itself holds it, under the tenant that asked.
    const direct = await fetch(`${compactor.url}/loki/api/v1/delete`, { headers: TENANT });
    expect(((await direct.json()) as unknown[]).length).toBe(1);
  });

  it('passes the compactor’s errors back unchanged', async () => {
    const bad = await fetch(`${querier.url}/loki/api/v1/delete?query=nonsense`, {
      method: 'POST',
      headers: TENANT,
    });
    const direct = await fetch(`${compactor.url}/loki/api/v1/delete?query=nonsense`, {
      method: 'POST',
      headers: TENANT,
    });
    expect(bad.status).toBe(direct.status);
    expect(await bad.text()).toBe(await direct.text());
  });
});
