import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET without any decoding, to see the bytes the server sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function pushLines(sut: TestServer, count: number): Promise<void> {
  const now = BigInt(Date.now()) * 1_000_000n;
  const values = Array.from({ length: count }, (_, i) => [
    String(now - BigInt(count - i) * 1_000_000n),
    `line ${i} of a query answer that is worth compressing, level=info took=${i}ms`,
  ]);
  const res = await fetch(`${sut.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ streams: [{ stream: { app: 'gz' }, values }] }),
  });
  expect(res.status).toBe(204);
}

const query = (sut: TestServer, limit: number) =>
  `${sut.url}/loki/api/v1/query_range?query=${encodeURIComponent('{app="gz"}')}&limit=${limit}&since=1h`;

describe('frontend.compress_responses and log_queries_longer_than', () => {
  let on: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    on = await startTestServer({
      config: {
        auth_enabled: false,
        server: { log_level: 'info' },
        frontend: { compress_responses: true, log_queries_longer_than: '1ns' },
      },
    });
    off = await startTestServer({ config: { auth_enabled: false } });
    await Promise.all([pushLines(on, 200), pushLines(off, 200)]);
  });
  afterAll(async () => {
    await on?.close();
    await off?.close();
  });

  it('gzips query answers for clients that accept gzip, as Loki does', async () => {
    const plain = await rawGet(query(on, 200), {});
    const zipped = await rawGet(query(on, 200), { 'accept-encoding': 'gzip, deflate' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    const answer = JSON.parse(gunzipSync(zipped.body).toString('utf8'));
    expect(answer.data.result[0].values).toHaveLength(200);
  });

  it('sends small answers as they are, and nothing compressed when it is off', async () => {
    const small = await rawGet(`${on.url}/loki/api/v1/labels?since=1h`, {
      'accept-encoding': 'gzip',
    });
    expect(small.status).toBe(200);
    expect(JSON.parse(small.body.toString('utf8')).data).toContain('app');
    expect(small.headers['content-encoding']).toBeUndefined();
    const offAnswer = await rawGet(query(off, 200), { 'accept-encoding': 'gzip' });
    expect(offAnswer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(offAnswer.body.toString('utf8')).data.result[0].values).toHaveLength(200);
  });

  it('logs each query that took longer than log_queries_longer_than, with its parameters', () => {
    const slow = on.logs.filter((l) => l.msg === 'slow query detected');
    expect(slow.length).toBeGreaterThan(0);
    expect(slow[0]).toMatchObject({
      method: 'GET',
      path: '/loki/api/v1/query_range',
      param_query: '{app="gz"}',
    });
    expect(slow[0].time_taken).toMatch(/^\d+(\.\d+)?(ns|µs|ms|s)$/);
    expect(off.logs.some((l) => l.msg === 'slow query detected')).toBe(false);
  });
});
