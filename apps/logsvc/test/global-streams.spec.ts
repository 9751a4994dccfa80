import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, metricValue, startTestServer } from './harness';

const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** `-ingester.max-global-streams`: one cap on streams in memory over all tenants together. */
describe('ingester.max_global_streams', () => {
  let sut: TestServer;

  beforeAll(async () => {
    sut = await startTestServer({ config: { ingester: { max_global_streams: 6 } } });
  });
  afterAll(() => sut.close());

  async function push(tenant: string, ...apps: string[]) {
    const t = nowNs();
    const res = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Scope-OrgID': tenant },
      body: JSON.stringify({
        streams: apps.map((app, i) => ({
          stream: { app },
          values: [[String(t + BigInt(i)), app]],
        })),
      }),
    });
    return { status: res.status, text: await res.text() };
  }

  const refusal = (tenant: string, app: string) =>
    `Maximum active stream limit of this ingester (all tenants) exceeded when trying to create stream {app="${app}", service_name="${app}"}, user: '${tenant}'; the limit is set by -ingester.max-global-streams\n`;

  it('refuses new streams of any tenant past the cap with 429, while known streams keep taking entries', async () => {
    for (const tenant of ['t1', 't2', 't3']) {
      expect((await push(tenant, 'a', 'b')).status).toBe(204);
    }
    // Each tenant is far below its own 5,000-stream allowance; the process is full.
    expect(await push('t4', 'a')).toEqual({ status: 429, text: refusal('t4', 'a') });
    expect(await push('t1', 'c')).toEqual({ status: 429, text: refusal('t1', 'c') });
    expect((await push('t2', 'a', 'b')).status).toBe(204);
    // A push mixing known and new streams stores the known ones and answers the refusal.
    expect(await push('t3', 'a', 'new')).toEqual({ status: 429, text: refusal('t3', 'new') });

    const scrape = await (await fetch(`${sut.url}/metrics`)).text();
    expect(metricValue(scrape, 'logsvc_ingester_memory_streams')).toBe(6);
    expect(
      metricValue(scrape, 'logsvc_discarded_samples_total', {
        reason: 'stream_limit',
        tenant: 't4',
      }),
    ).toBe(1);
  });
});
