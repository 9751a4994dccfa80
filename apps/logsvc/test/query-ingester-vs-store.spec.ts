import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, pushToIngester } from './read-helpers';

const TENANT = 'scan';
const APPS = ['api', 'web', 'db', 'cache', 'auth'];
const WORDS = ['GET', 'POST', 'error', 'err', 'ok', 'timeout', 'needle-7', 'user', 'é', 'x'];

/** Deterministic lines that compress poorly enough to fill several chunks per stream. */
function rows(app: number, startNs: bigint, count: number): [bigint, string][] {
  let seed = app * 7919 + 1;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const out: [bigint, string][] = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 6 }, () => WORDS[rand() % WORDS.length]);
    // Some entries share a timestamp, some lines repeat.
    const ts = startNs + BigInt(Math.floor(i / 3)) * 1_000_000_000n;
    out.push([ts, `${words.join(' ')} id=${rand().toString(16)}${rand().toString(16)}`]);
  }
  return out;
}

const QUERIES: { name: string; path: string; params: Record<string, string> }[] = [];

describe('the same query over ingester memory and over flushed chunks', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'logsvc-scan-'));
  const t0 = ((nowNs() - 40n * MINUTE_NS) / MINUTE_NS) * MINUTE_NS;
  const end = t0 + 30n * MINUTE_NS;
  const config = {
    auth_enabled: true,
    // Small blocks and chunks: each stream has closed chunks, cut blocks and a head block.
    ingester: { chunk_block_size: 4096, chunk_target_size: 32768 },
    querier: { scan_workers: 2 },
  };
  const answers: { memory: unknown[]; store: unknown[] } = { memory: [], store: [] };

  for (const direction of ['forward', 'backward']) {
    QUERIES.push({
      name: `log |= ${direction}`,
      path: '/loki/api/v1/query_range',
      params: { query: '{app=~".+"} |= "needle-7"', limit: '300', direction },
    });
  }
  QUERIES.push(
    {
      name: 'log |~',
      path: '/loki/api/v1/query_range',
      params: { query: '{app=~".+"} |~ "err(or)?" |= "GET"', limit: '5000' },
    },
    {
      name: 'count_over_time |=',
      path: '/loki/api/v1/query',
      params: { query: 'count_over_time({app=~".+"} |= "GET" [1h])', time: String(end) },
    },
    {
      name: 'sum rate |~',
      path: '/loki/api/v1/query_range',
      params: { query: 'sum by (app) (rate({app=~".+"} |~ "err(or)?" [5m]))', step: '60' },
    },
  );

  async function ask(sut: TestServer): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const q of QUERIES) {
      const params = { start: String(t0 - MINUTE_NS), end: String(end), ...q.params };
      const res = await getAs(sut, TENANT, q.path, params);
      expect(res.status, q.name).toBe(200);
      const body = (await res.json()) as { data: { result: unknown; stats: unknown } };
      out.push({ name: q.name, result: body.data.result });
    }
    return out;
  }

  beforeAll(async () => {
    const memory = await startTestServer({ config, dataDir });
    try {
      for (let a = 0; a < APPS.length; a++) {
        const all = rows(a, t0, 6000);
        // Pushed in a few batches so chunks are cut while data keeps coming.
        for (let k = 0; k < all.length; k += 1500) {
          await pushToIngester(memory, TENANT, `{app="${APPS[a]}"}`, all.slice(k, k + 1500));
        }
      }
      answers.memory = await ask(memory);
      const flushed = await fetch(`${memory.url}/flush`, { method: 'POST' });
      expect(flushed.status).toBe(204);
    } finally {
      await memory.close();
    }
    const store = await startTestServer({
      config: { ...config, querier: { ...config.querier, query_store_only: true } },
      dataDir,
    });
    try {
      answers.store = await ask(store);
    } finally {
      await store.close();
    }
  }, 120_000);

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finds lines in memory and in the store', () => {
    const counts = (answers.memory as { result: unknown[] }[]).map((a) => a.result.length);
    expect(counts.every((n) => n > 0)).toBe(true);
  });

  it('gives identical answers', () => {
    expect(answers.memory).toEqual(answers.store);
  });
});
