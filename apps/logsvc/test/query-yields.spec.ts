import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, pushToIngester } from './read-helpers';

/**
 * A query runs in time slices on the one event loop: while the most expensive query a tenant
 * can write runs, `/ready` and pushes keep answering, and the query timeout fires on time.
 */
describe('queries share the event loop', () => {
  let sut: TestServer;
  const t0 = nowNs() - 30n * MINUTE_NS;
  // Enough lines that the heavy queries below take several times query_timeout even on a quiet
  // machine (4,000 finished inside the second there).
  const LINES = 16_000;
  // ~2,000 template steps per line: seconds of work for all lines, no single slow entry.
  const heavy =
    '{app="api"} | line_format `{{ range 1000 }}{{ $.msg | upper | lower }}{{ end }}` |= "nope"';

  beforeAll(async () => {
    sut = await startTestServer({ config: { limits_config: { query_timeout: '1s' } } });
    const rows: Array<[bigint, string]> = [];
    for (let i = 0; i < LINES; i++) rows.push([t0 + BigInt(i) * 1_000_000n, `msg=m${i} n=${i}`]);
    await pushToIngester(sut, 'team-a', '{app="api"}', rows);
  });
  afterAll(() => sut.close());

  const runHeavy = (kind: 'metric' | 'log' = 'metric') =>
    getAs(sut, 'team-a', '/loki/api/v1/query_range', {
      query: kind === 'log' ? heavy : `count_over_time(${heavy} [1h])`,
      start: String(t0),
      end: String(t0 + 60n * MINUTE_NS),
      step: '60',
      limit: '10',
    });

  async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
    const started = performance.now();
    const out = await f();
    return [out, performance.now() - started];
  }

  it.each(['metric', 'log'] as const)(
    'stops a heavy %s query at query_timeout with a 504, not seconds later',
    async (kind) => {
      const [res, ms] = await timed(() => runHeavy(kind));
      expect(res.status).toBe(504);
      expect(ms).toBeLessThan(2_500);
    },
  );

  it('keeps /ready and pushes answering while heavy queries run', async () => {
    const queries = [runHeavy(), runHeavy()];
    const probes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const [ready, ms] = await timed(() => fetch(`${sut.url}/ready`));
      expect(ready.status).toBe(200);
      probes.push(ms);
      const [push, pushMs] = await timed(() =>
        fetch(`${sut.url}/loki/api/v1/push`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-Scope-OrgID': 'team-b' },
          body: JSON.stringify({
            streams: [
              { stream: { app: 'probe' }, values: [[String(nowNs() + BigInt(i)), `p${i}`]] },
            ],
          }),
        }),
      );
      expect(push.status).toBe(204);
      probes.push(pushMs);
    }
    const statuses = (await Promise.all(queries)).map((r) => r.status);
    expect(statuses).toEqual([504, 504]);
    probes.sort((a, b) => a - b);
    // Most probes waited a few slices; none waited for a whole query (1 s here). The bound on
    // the slowest leaves room for a push's fsync on a disk the rest of the suite keeps busy.
    expect(probes[probes.length >> 1]).toBeLessThan(150);
    expect(probes[probes.length - 1]).toBeLessThan(600);
  });
});
