import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, metricValue, startTestServer } from './harness';

const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** A JSON push of `n` new one-entry streams, as an agent with a label per request would send. */
function manyStreams(n: number): string {
  const t = nowNs();
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(
      `{"stream":{"app":"big","req":"r${i}"},"values":[["${t + BigInt(i)}","line ${i}"]]}`,
    );
  }
  return `{"streams":[${parts.join(',')}]}`;
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const out = await f();
  return [out, performance.now() - started];
}

/**
 * One large push shares the event loop: it is decoded, validated and stored in slices, and
 * streams over the stream limit are dropped as they are decoded, so other requests keep
 * answering while it runs and it ends with one short refusal.
 */
describe('a large push', () => {
  let sut: TestServer;
  const STREAMS = 200_000;
  const LIMIT = 5_000;

  beforeAll(async () => {
    sut = await startTestServer({
      config: {
        limits_config: {
          ingestion_rate_mb: 1000,
          ingestion_burst_size_mb: 1000,
          max_global_streams_per_user: LIMIT,
        },
      },
    });
  });
  afterAll(() => sut.close());

  const push = (tenant: string, body: string) =>
    fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Scope-OrgID': tenant },
      body,
    });

  it('keeps /ready and other tenants answering, and ends with a one-line 429', async () => {
    const body = manyStreams(STREAMS);
    let done = false;
    const big = push('big-tenant', body).then(async (res) => {
      done = true;
      return { status: res.status, text: await res.text() };
    });
    const probes: number[] = [];
    for (let i = 0; !done; i++) {
      const [ready, readyMs] = await timed(() => fetch(`${sut.url}/ready`));
      expect(ready.status).toBe(200);
      const [small, smallMs] = await timed(() =>
        push(
          'small-tenant',
          JSON.stringify({
            streams: [{ stream: { app: 'probe' }, values: [[String(nowNs() + BigInt(i)), 'p']] }],
          }),
        ),
      );
      expect(small.status).toBe(204);
      probes.push(readyMs, smallMs);
    }
    const answer = await big;
    expect(answer.status).toBe(429);
    expect(answer.text).toBe(
      `Maximum active stream limit exceeded when trying to create stream {app="big", req="r${STREAMS - 1}", service_name="big"}, reduce the number of active streams (reduce labels or reduce label values), or contact your Loki administrator to see if the limit can be increased, user: 'big-tenant'\n`,
    );
    // The probes ran while the push was processed, and none waited long (a probe push includes
    // its fsync, slow on a busy disk; unsliced, this push held every request for seconds).
    expect(probes.length).toBeGreaterThan(10);
    expect(Math.max(...probes)).toBeLessThan(500);

    // The tenant got its allowance; everything else was counted as refused, not stored.
    const scrape = await (await fetch(`${sut.url}/metrics`)).text();
    expect(metricValue(scrape, 'logsvc_ingester_memory_streams')).toBe(LIMIT + 1);
    expect(
      metricValue(scrape, 'logsvc_discarded_samples_total', {
        reason: 'stream_limit',
        tenant: 'big-tenant',
      }),
    ).toBe(STREAMS - LIMIT);
  });
});
