/**
 * The single binary's query frontend: `query_range` split by interval, sharded, answered from
 * the results cache when asked again, per tenant, with the counters in `data.stats`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, storeChunk } from './read-helpers';

const SECOND_NS = 1_000_000_000n;
const HOUR_NS = 60n * MINUTE_NS;

interface Answer {
  data: {
    result: Array<{ metric: Record<string, string>; values: [number, string][] }>;
    stats: {
      summary: { splits: number; shards: number; subqueries: number; totalLinesProcessed: number };
      cache: { result: { entriesRequested: number; entriesFound: number; entriesStored: number } };
    };
  };
}

describe('query frontend in the single binary', () => {
  let sut: TestServer;
  let uncached: TestServer;
  // Four whole hours, ending an hour ago: every split is older than the cache's cut-off.
  const end = ((nowNs() - HOUR_NS) / HOUR_NS) * HOUR_NS;
  const start = end - 4n * HOUR_NS;
  const range = { start: String(start), end: String(end), step: '300' };

  async function fill(server: TestServer) {
    for (let pod = 0; pod < 6; pod++) {
      const rows: [bigint, string][] = [];
      for (let i = 0n; i < 240n; i++) {
        rows.push([
          start + i * MINUTE_NS + BigInt(pod) * SECOND_NS,
          `level=${i % 4n === 0n ? 'error' : 'info'} i=${i}`,
        ]);
      }
      await storeChunk(server, 'team-a', `{app="api", pod="pod-${pod}"}`, rows);
    }
  }

  beforeAll(async () => {
    const limits = { tsdb_max_bytes_per_shard: '1KB', tsdb_max_query_parallelism: 4 };
    // Retention on: the delete API exists (as in Loki).
    sut = await startTestServer({
      config: { limits_config: limits, compactor: { retention_enabled: true } },
    });
    uncached = await startTestServer({
      config: { limits_config: limits, query_range: { cache_results: false } },
    });
    await fill(sut);
    await fill(uncached);
  });
  afterAll(async () => {
    await sut.close();
    await uncached.close();
  });

  const query = (server: TestServer, q: string, tenant = 'team-a', headers = {}) =>
    getAs(server, tenant, '/loki/api/v1/query_range', { ...range, query: q }, headers);

  it('splits by hour, runs the uncached hours together per shard, and answers what the querier answers unsplit', async () => {
    const q = 'sum by (level) (count_over_time({app="api"} | logfmt [5m]))';
    const res = await query(sut, q);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Answer;
    expect(body.data.stats.summary.splits).toBe(4);
    // On one machine the four uncached hours run as one range, a sub-query per shard.
    expect(body.data.stats.summary.shards).toBe(4);
    expect(body.data.stats.summary.subqueries).toBe(4);
    expect(body.data.stats.summary.totalLinesProcessed).toBeGreaterThanOrEqual(6 * 240);
    expect(body.data.result.map((s) => s.metric.level)).toEqual(['error', 'info']);
    const plain = (await (await query(uncached, q)).json()) as Answer;
    expect(body.data.result).toEqual(plain.data.result);
  });

  it('answers a repeated query from the results cache, and never another tenant', async () => {
    const q = 'sum(rate({app="api"} |= "error" [5m]))';
    const first = (await (await query(sut, q)).json()) as Answer;
    expect(first.data.stats.cache.result.entriesFound).toBe(0);
    expect(first.data.stats.cache.result.entriesStored).toBe(4);
    const again = (await (await query(sut, q)).json()) as Answer;
    expect(again.data.stats.cache.result).toMatchObject({ entriesRequested: 4, entriesFound: 4 });
    // Nothing was read again.
    expect(again.data.stats.summary.totalLinesProcessed).toBe(0);
    expect(again.data.result).toEqual(first.data.result);
    const other = (await (await query(sut, q, 'team-b')).json()) as Answer;
    expect(other.data.stats.cache.result.entriesFound).toBe(0);
    expect(other.data.result).toEqual([]);
  });

  it('stops answering from the cache once a delete request changes the answer', async () => {
    const q = 'sum(count_over_time({app="api", pod="pod-2"} |= "error" [5m]))';
    await query(sut, q);
    const cached = (await (await query(sut, q)).json()) as Answer;
    expect(cached.data.stats.cache.result.entriesFound).toBe(4);
    const del = await fetch(
      `${sut.url}/loki/api/v1/delete?${new URLSearchParams({
        query: '{app="api", pod="pod-2"} |= "error"',
        start: String(start / 1_000_000_000n),
        end: String(end / 1_000_000_000n),
      })}`,
      { method: 'POST', headers: { 'X-Scope-OrgID': 'team-a' } },
    );
    expect(del.status).toBe(204);
    const after = (await (await query(sut, q)).json()) as Answer;
    expect(after.data.stats.cache.result.entriesFound).toBe(0);
    expect(cached.data.result).not.toEqual([]);
    expect(after.data.result).toEqual([]);
  });

  it('has no results cache with query_range.cache_results: false', async () => {
    const q = 'sum(count_over_time({app="api"}[5m]))';
    await query(uncached, q);
    const again = (await (await query(uncached, q)).json()) as Answer;
    expect(again.data.stats.cache.result.entriesRequested).toBe(0);
    expect(again.data.stats.summary.subqueries).toBeGreaterThan(0);
  });

  it('takes an actor path header and answers as without it', async () => {
    const q = 'count_over_time({app="api", pod="pod-1"}[5m])';
    const plain = (await (await query(uncached, q)).json()) as Answer;
    const res = await query(uncached, q, 'team-a', { 'X-Logsvc-Actor-Path': 'grafana|alice' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Answer).data.result).toEqual(plain.data.result);
  });
});
