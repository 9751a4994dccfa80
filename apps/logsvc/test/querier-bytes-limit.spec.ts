/**
 * `limits_config.max_querier_bytes_read` over HTTP: a Loki config setting it starts, and a query
 * one querier would read more of than the limit gets Loki's 400 and text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, storeChunk } from './read-helpers';

const HOUR_NS = 60n * MINUTE_NS;

describe('limits_config.max_querier_bytes_read', () => {
  let sut: TestServer;
  const end = ((nowNs() - HOUR_NS) / HOUR_NS) * HOUR_NS;
  const start = end - HOUR_NS;

  beforeAll(async () => {
    sut = await startTestServer({ config: { limits_config: { max_querier_bytes_read: '1KB' } } });
    const rows: [bigint, string][] = [];
    for (let i = 0n; i < 60n; i++) rows.push([start + i * MINUTE_NS, `line ${i} `.repeat(20)]);
    await storeChunk(sut, 'team-a', '{app="api"}', rows);
  });
  afterAll(async () => {
    await sut.close();
  });

  const query = (tenant: string) =>
    getAs(sut, tenant, '/loki/api/v1/query_range', {
      query: 'sum(count_over_time({app="api"}[5m]))',
      start: String(start),
      end: String(end),
      step: '300',
    });

  it('refuses a query over the limit with a 400 naming the bytes and the limit', async () => {
    const res = await query('team-a');
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toMatch(
      /^un-shardable query too large to execute on a single querier: \(query: [\d.]+ KiB, limit: 1\.0 KiB\); consider adding more specific stream selectors or reduce the time range of the query/,
    );
  });

  it('answers a query within it', async () => {
    const res = await query('team-b');
    expect(res.status).toBe(200);
  });
});
