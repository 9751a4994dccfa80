import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, metricValue, startTestServer } from './harness';
import { getAs } from './read-helpers';

const NS_PER_S = 1_000_000_000n;

/** Pushes `lines` as JSON over HTTP, one per 100 ms from `startS` (Unix seconds). */
async function push(
  sut: TestServer,
  tenant: string,
  stream: object,
  startS: number,
  lines: string[],
) {
  const values = lines.map((line, i) => [
    String(BigInt(startS) * NS_PER_S + BigInt(i) * 100_000_000n),
    line,
  ]);
  const res = await fetch(`${sut.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Scope-OrgID': tenant },
    body: JSON.stringify({ streams: [{ stream, values }] }),
  });
  expect(res.status).toBe(204);
}

async function patterns(sut: TestServer, params: Record<string, string>) {
  // The tee flushes every second; poll until the pattern ingester has the lines.
  for (let i = 0; ; i++) {
    const res = await getAs(sut, 'acme', '/loki/api/v1/patterns', params);
    const text = await res.text();
    if (res.status !== 200 || text.includes('pattern') || i === 50) return { res, text };
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('GET /patterns', () => {
  let sut: TestServer;
  let off: TestServer;
  const nowS = Math.floor(Date.now() / 1000 / 60) * 60 - 600; // ten minutes ago, on a minute
  beforeAll(async () => {
    sut = await startTestServer({ config: { pattern_ingester: { enabled: true } } });
    off = await startTestServer();
    const jobs = Array.from(
      { length: 40 },
      (_, i) => `worker ${i % 5} finished job ${9000 + i} in ${i}ms`,
    );
    const rare = Array.from({ length: 5 }, (_, i) => `disk ${i} full on host ${i}`);
    await push(sut, 'acme', { app: 'api' }, nowS, jobs);
    await push(sut, 'acme', { app: 'web' }, nowS, jobs.slice(0, 20));
    await push(sut, 'acme', { app: 'api' }, nowS + 10, rare);
  });
  afterAll(async () => {
    await sut.close();
    await off.close();
  });

  it("answers Loki's shape: patterns of the selected streams, samples per step, frequent ones only", async () => {
    const { res, text } = await patterns(sut, {
      query: '{app=~"api|web"}',
      start: String(BigInt(nowS - 60) * NS_PER_S),
      end: String(BigInt(nowS + 120) * NS_PER_S),
      step: '60s',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    // 40 lines of `api` and 20 of `web` in the same minute; the 5 disk lines are too few.
    expect(text).toBe(
      `{"status":"success","data":[{"pattern":"worker \\u003c_\\u003e finished job \\u003c_\\u003e in \\u003c_\\u003e","samples":[[${nowS},60]]}]}\n`,
    );
  });

  it('counts only the selected streams', async () => {
    const { text } = await patterns(sut, {
      query: '{app="api"}',
      start: String(BigInt(nowS) * NS_PER_S),
      end: String(BigInt(nowS + 60) * NS_PER_S),
      step: '10s',
    });
    const body = JSON.parse(text) as { data: { pattern: string; samples: number[][] }[] };
    // 40 lines, 10 per second: 4 s, so in the first 10 s step.
    expect(body.data).toEqual([
      { pattern: 'worker <_> finished job <_> in <_>', samples: [[nowS, 40]] },
    ]);
  });

  it('rejects bad parameters as Loki does', async () => {
    const range = {
      start: String(BigInt(nowS) * NS_PER_S),
      end: String(BigInt(nowS + 3600) * NS_PER_S),
    };
    const small = await getAs(sut, 'acme', '/loki/api/v1/patterns', {
      query: '{app="api"}',
      ...range,
      step: '100ms',
    });
    expect(small.status).toBe(400);
    expect(await small.text()).toContain(
      'exceeded maximum resolution of 11,000 points per time series',
    );
    const bad = await getAs(sut, 'acme', '/loki/api/v1/patterns', { query: '{app=', ...range });
    expect(bad.status).toBe(400);
  });

  it("exports Loki's pattern ingester, tee and querier metrics on /metrics", async () => {
    // A stream of lines Drain does not use: one too short, one too long.
    await push(sut, 'acme', { app: 'misc' }, nowS, ['ok', 'x'.repeat(3001)]);
    const scrape = async () => (await fetch(`${sut.url}/metrics`)).text();
    const dropped = (text: string, reason: string) =>
      metricValue(text, 'loki_pattern_ingester_patterns_dropped_total', { tenant: 'acme', reason });
    let text = await scrape();
    for (let i = 0; i < 50 && dropped(text, 'line_too_long') === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = await scrape();
    }
    expect(dropped(text, 'too_few_tokens')).toBe(1);
    expect(dropped(text, 'line_too_long')).toBe(1);
    // api: the worker and the disk patterns; web: the worker pattern.
    const detected = { tenant: 'acme', format: 'unknown' };
    for (const prefix of ['loki', 'logsvc'])
      expect(
        metricValue(text, `${prefix}_pattern_ingester_patterns_detected_total`, detected),
      ).toBe(3);
    expect(text).toContain('# TYPE loki_pattern_ingester_patterns_evicted_total counter');
    expect(metricValue(text, 'logsvc_pattern_ingester_streams')).toBe(3);
    // The tee: every stream of the four pushes batched, each batch queued and appended.
    expect(
      metricValue(text, 'loki_pattern_ingester_teed_streams_total', { status: 'batched' }),
    ).toBe(4);
    expect(
      metricValue(text, 'loki_pattern_ingester_teed_requests_total', { status: 'queued' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(text, 'loki_pattern_ingester_appends_total', { status: 'success' }),
    ).toBeGreaterThanOrEqual(1);
    // The querier: the earlier queries kept the worker pattern and pruned the disk one.
    expect(metricValue(text, 'loki_pattern_ingester_query_retained_total')).toBeGreaterThanOrEqual(
      2,
    );
    expect(metricValue(text, 'loki_pattern_ingester_query_pruned_total')).toBeGreaterThanOrEqual(1);
    // Nothing of the kind where pattern ingesters are off.
    expect(await (await fetch(`${off.url}/metrics`)).text()).not.toContain('pattern_ingester');
  });

  it('is 404 when the pattern ingester is off', async () => {
    const res = await getAs(off, 'acme', '/logsvc/api/v1/patterns', { query: '{app="api"}' });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('\n');
  });
});
