import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs } from './read-helpers';

/**
 * detected_fields and detected_field values run the request's log query, pipeline included:
 * lines a line_format builds count against max_query_memory_bytes there too, not only in
 * query_range.
 */
describe('detected fields under the query memory budget', () => {
  let sut: TestServer;
  const t0 = nowNs() - 10n * MINUTE_NS;
  const range = { start: String(t0 - MINUTE_NS), end: String(nowNs()) };
  const huge = '{app="api"} | line_format "{{ repeat 100000 \\"x=y \\" }}"';

  beforeAll(async () => {
    sut = await startTestServer({
      config: { limits_config: { max_query_memory_bytes: 1_000_000 } },
    });
    const values = Array.from({ length: 20 }, (_, i) => [
      String(t0 + BigInt(i) * 1_000_000_000n),
      `level=info n=${i}`,
    ]);
    const res = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Scope-OrgID': 'team-a' },
      body: JSON.stringify({ streams: [{ stream: { app: 'api' }, values }] }),
    });
    expect(res.status).toBe(204);
  });
  afterAll(() => sut.close());

  it('answers a formatted answer past the budget with a 400 naming it, and stays up', async () => {
    for (const path of ['/loki/api/v1/detected_fields', '/loki/api/v1/detected_field/x/values']) {
      const res = await getAs(sut, 'team-a', path, { query: huge, ...range });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('max_query_memory_bytes');
    }
    const ok = await getAs(sut, 'team-a', '/loki/api/v1/detected_fields', {
      query: '{app="api"}',
      ...range,
    });
    expect(ok.status).toBe(200);
  });
});
