import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type PushRequest, parseLabels } from '@logsvc/api';
import { encodePushJson, encodePushProtobuf, encodePushProtobufRaw } from '@logsvc/push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, metricValue, readFromIngester, startTestServer } from './harness';

const NS = 1_000_000n;
const nowNs = (): bigint => BigInt(Date.now()) * NS;

type Row = readonly [bigint, string, Record<string, string>?];

function request(streams: Record<string, readonly Row[]>): PushRequest {
  return {
    streams: Object.entries(streams).map(([labels, rows]) => ({
      labels: parseLabels(labels),
      entries: rows.map(([ts, line, sm]) => ({
        timestampNs: ts,
        line: Buffer.from(line),
        structuredMetadata: parseLabels(
          `{${Object.entries(sm ?? {})
            .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
            .join(',')}}`,
        ),
      })),
    })),
  };
}

interface Answer {
  status: number;
  text: string;
}

/** POSTs `chunks` with Transfer-Encoding: chunked (no Content-Length), as streaming clients do. */
function postChunked(
  url: string,
  chunks: Buffer[],
  headers: Record<string, string>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }),
      );
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('push endpoints', () => {
  let sut: TestServer;
  let overridesDir: string;

  async function post(
    path: string,
    body: Buffer | string,
    headers: Record<string, string>,
    tenant: string | null = 'team-a',
  ): Promise<Answer> {
    const res = await fetch(sut.url + path, {
      method: 'POST',
      headers: { ...(tenant === null ? {} : { 'X-Scope-OrgID': tenant }), ...headers },
      body,
    });
    return { status: res.status, text: await res.text() };
  }

  const pushProto = (req: PushRequest, tenant = 'team-a', path = '/loki/api/v1/push') =>
    post(path, encodePushProtobuf(req), { 'content-type': 'application/x-protobuf' }, tenant);

  const scrape = async (): Promise<string> => (await fetch(`${sut.url}/metrics`)).text();

  beforeAll(async () => {
    overridesDir = mkdtempSync(join(tmpdir(), 'logsvc-push-overrides-'));
    const runtimeFile = join(overridesDir, 'runtime.yaml');
    writeFileSync(
      runtimeFile,
      [
        'overrides:',
        '  tiny-rate:',
        '    ingestion_rate_mb: 0.001',
        '    ingestion_burst_size_mb: 0.002',
        '  blocked:',
        '    block_ingestion_until: "2099-01-01T00:00:00Z"',
        '  blocked-quiet:',
        '    block_ingestion_until: "2099-01-01T00:00:00Z"',
        '    block_ingestion_status_code: 200',
        '  one-stream:',
        '    max_streams_per_user: 1',
        '  precedence:',
        '    max_streams_per_user: 1',
        '  many-refused:',
        '    max_streams_per_user: 1',
        '  slow-stream:',
        '    per_stream_rate_limit: 100',
        '    per_stream_rate_limit_burst: 200',
        '    discover_log_levels: false',
        '  truncating:',
        '    max_line_size_truncate: true',
        '',
      ].join('\n'),
    );
    sut = await startTestServer({
      config: {
        auth_enabled: true,
        limits_config: { max_line_size: 100 },
        runtime_config: { file: runtimeFile },
        distributor: { max_recv_msg_size: 64 * 1024 },
      },
    });
  });
  afterAll(async () => {
    await sut.close();
    rmSync(overridesDir, { recursive: true, force: true });
  });

  it('stores snappy protobuf pushes on all four paths with structured metadata, answering 204', async () => {
    const t = nowNs();
    const paths = [
      '/logsvc/api/v1/push',
      '/loki/api/v1/push',
      '/api/compat/push',
      '/api/prom/push',
    ];
    for (const [i, path] of paths.entries()) {
      const req = request({
        '{app="proto", path="p"}': [[t + BigInt(i), `line via ${path}`, { trace_id: `t${i}` }]],
      });
      const res = await pushProto(req, 'team-a', path);
      expect(res, path).toEqual({ status: 204, text: '' });
    }
    const stored = readFromIngester(sut, 'team-a', '{app="proto"}');
    expect(stored.map((e) => e.line)).toEqual(paths.map((p) => `line via ${p}`));
    expect(stored[0].metadata).toMatchObject({ trace_id: 't0' });
    // service_name is discovered from `app`, as Loki does on push.
    expect(stored[0].stream).toBe('{app="proto", path="p", service_name="proto"}');
  });

  it('stores JSON pushes, plain and gzip-compressed, with structured metadata', async () => {
    const t = nowNs().toString();
    const doc = (line: string) =>
      JSON.stringify({
        streams: [{ stream: { app: 'json' }, values: [[t, line, { user: 'u1' }]] }],
      });
    const plain = await post('/loki/api/v1/push', doc('plain'), {
      'content-type': 'application/json',
    });
    expect(plain.status).toBe(204);
    const gz = await post('/logsvc/api/v1/push', gzipSync(doc('gzipped')), {
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'gzip',
    });
    expect(gz.status).toBe(204);
    const stored = readFromIngester(sut, 'team-a', '{app="json"}');
    expect(stored.map((e) => e.line).sort()).toEqual(['gzipped', 'plain']);
    expect(stored[0].metadata).toMatchObject({ user: 'u1' });
  });

  it('returns structured metadata with quotes as pushed in JSON (Loki 3.4 keeps the escapes)', async () => {
    const t = nowNs();
    const doc = JSON.stringify({
      streams: [
        {
          stream: { app: 'quoted-meta' },
          values: [[t.toString(), 'line', { payload: '{"id":2}', note: 'say "hi" \\ bye' }]],
        },
      ],
    });
    const pushed = await post('/loki/api/v1/push', doc, { 'content-type': 'application/json' });
    expect(pushed.status).toBe(204);
    const qs = new URLSearchParams({
      query: '{app="quoted-meta"}',
      start: (t - 1000n * NS).toString(),
      end: (t + 1000n * NS).toString(),
    });
    const res = await fetch(`${sut.url}/loki/api/v1/query_range?${qs}`, {
      headers: { 'X-Scope-OrgID': 'team-a' },
    });
    expect(res.status).toBe(200);
    // Without categorize-labels, structured metadata is part of the returned stream's labels.
    const body = (await res.json()) as {
      data: { result: Array<{ stream: Record<string, string> }> };
    };
    expect(body.data.result).toHaveLength(1);
    expect(body.data.result[0].stream).toMatchObject({
      payload: '{"id":2}',
      note: 'say "hi" \\ bye',
    });
  });

  it('refuses a JSON numeric timestamp with 400', async () => {
    const body = JSON.stringify({ streams: [{ stream: { app: 'x' }, values: [[1, 'line']] }] });
    const res = await post('/loki/api/v1/push', body, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(readFromIngester(sut, 'team-a', '{app="x"}')).toEqual([]);
  });

  it('refuses several tenants with 400 and a missing tenant with 401', async () => {
    const req = request({ '{app="t"}': [[nowNs(), 'x']] });
    expect((await pushProto(req, 'a|b')).status).toBe(400);
    const missing = await post(
      '/loki/api/v1/push',
      encodePushProtobuf(req),
      { 'content-type': 'application/x-protobuf' },
      null,
    );
    expect(missing).toEqual({ status: 401, text: 'no org id\n' });
  });

  it('keeps the valid streams of a partly invalid push and names the limit in a 400', async () => {
    const t = nowNs();
    const before = await scrape();
    const base = metricValue(before, 'logsvc_discarded_samples_total', {
      reason: 'line_too_long',
      tenant: 'team-a',
    });
    const res = await pushProto(
      request({
        '{app="partial", ok="yes"}': [[t, 'short line']],
        '{app="partial", ok="no"}': [[t, 'x'.repeat(150)]],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.text).toBe(
      `Max entry size '100' bytes exceeded for stream '{app="partial", ok="no", service_name="partial"}' while adding an entry with length '150' bytes\n`,
    );
    expect(readFromIngester(sut, 'team-a', '{app="partial"}').map((e) => e.line)).toEqual([
      'short line',
    ]);
    const after = await scrape();
    for (const name of ['logsvc_discarded_samples_total', 'loki_discarded_samples_total']) {
      expect(metricValue(after, name, { reason: 'line_too_long', tenant: 'team-a' })).toBe(
        (base ?? 0) + 1,
      );
    }
    expect(
      metricValue(after, 'loki_discarded_bytes_total', {
        reason: 'line_too_long',
        tenant: 'team-a',
      }),
    ).toBeGreaterThanOrEqual(150);
  });

  it('drops only the streams whose label string does not parse, counting them by reason', async () => {
    const t = nowNs();
    const count = async (reason: string): Promise<number> =>
      metricValue(await scrape(), 'loki_discarded_samples_total', { reason, tenant: 'team-a' }) ??
      0;
    const invalidBefore = await count('invalid_labels');
    const duplicateBefore = await count('duplicate_label_names');
    const entry = (line: string) => ({
      timestampNs: t,
      line: Buffer.from(line),
      structuredMetadata: [],
    });
    // Label strings as a client could send them: a name starting with a digit, a name twice.
    const res = await pushProto({
      streams: [
        { labels: [{ name: '1bad', value: 'a' }], entries: [entry('bad name')] },
        {
          labels: [
            { name: 'app', value: 'p' },
            { name: 'app', value: 'q' },
          ],
          entries: [entry('dup 1'), entry('dup 2')],
        },
        { labels: [{ name: 'app', value: 'labels-ok' }], entries: [entry('kept')] },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain(`Error parsing labels '{1bad="a"}' with error:`);
    expect(res.text).toContain(`stream '{app="p", app="q"}' has duplicate label name: 'app'`);
    expect(readFromIngester(sut, 'team-a', '{app="labels-ok"}').map((e) => e.line)).toEqual([
      'kept',
    ]);
    expect(await count('invalid_labels')).toBe(invalidBefore + 1);
    expect(await count('duplicate_label_names')).toBe(duplicateBefore + 2);
  });

  it('groups several validation errors the way Loki does', async () => {
    const old = nowNs() - 8n * 24n * 3600n * 1000n * NS;
    const res = await pushProto(
      request({
        '{app="grouped"}': [
          [old, 'too old'],
          [old + 1n, 'too old too'],
        ],
        '{app="grouped", big="y"}': [[nowNs(), 'y'.repeat(101)]],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^3 errors like: entry for stream .* has timestamp too old: /);
    expect(res.text).toContain("Max entry size '100' bytes exceeded");
  });

  it('counts received lines and bytes per tenant under both names', async () => {
    const res = await pushProto(request({ '{app="count"}': [[nowNs(), '12345']] }), 'counted');
    expect(res.status).toBe(204);
    const m = await scrape();
    for (const prefix of ['logsvc', 'loki']) {
      expect(
        metricValue(m, `${prefix}_distributor_lines_received_total`, { tenant: 'counted' }),
      ).toBe(1);
      // Line bytes as received: counted before validation adds detected_level, as in Loki.
      expect(
        metricValue(m, `${prefix}_distributor_bytes_received_total`, { tenant: 'counted' }),
      ).toBe(5);
    }
  });

  it('answers 429 with Loki message past the tenant ingestion rate, storing nothing', async () => {
    const res = await pushProto(
      request({ '{app="rate"}': [[nowNs(), 'z'.repeat(90)], ...lines(40)] }),
      'tiny-rate',
    );
    expect(res.status).toBe(429);
    expect(res.text).toMatch(
      /^Ingestion rate limit exceeded for user tiny-rate \(limit: 1048 bytes\/sec\) while attempting to ingest '41' lines totaling '\d+' bytes, reduce log volume/,
    );
    expect(readFromIngester(sut, 'tiny-rate', '{app="rate"}')).toEqual([]);
    const m = await scrape();
    expect(
      metricValue(m, 'loki_discarded_samples_total', {
        reason: 'rate_limited',
        tenant: 'tiny-rate',
      }),
    ).toBe(41);
  });

  it('answers block_ingestion_status_code while ingestion is blocked', async () => {
    const req = request({ '{app="blocked"}': [[nowNs(), 'x']] });
    const blocked = await pushProto(req, 'blocked');
    expect(blocked).toEqual({
      status: 260,
      text: "ingestion blocked for user blocked until '2099-01-01T00:00:00Z' with status code '260'\n",
    });
    expect(await pushProto(req, 'blocked-quiet')).toEqual({ status: 200, text: '' });
    expect(readFromIngester(sut, 'blocked-quiet', '{app="blocked"}')).toEqual([]);
    const m = await scrape();
    expect(
      metricValue(m, 'logsvc_discarded_samples_total', {
        reason: 'blocked_ingestion',
        tenant: 'blocked',
      }),
    ).toBe(1);
  });

  it('refuses a new stream past max_streams_per_user with 429, keeping the first', async () => {
    const t = nowNs();
    expect((await pushProto(request({ '{app="s1"}': [[t, 'a']] }), 'one-stream')).status).toBe(204);
    const res = await pushProto(
      request({ '{app="s1"}': [[t + 1n, 'b']], '{app="s2"}': [[t, 'c']] }),
      'one-stream',
    );
    expect(res.status).toBe(429);
    expect(res.text).toContain('Maximum active stream limit exceeded');
    expect(readFromIngester(sut, 'one-stream', '{app="s1"}').map((e) => e.line)).toEqual([
      'a',
      'b',
    ]);
  });

  it('answers one line, the last refusal, however many streams are refused (as Loki)', async () => {
    const t = nowNs();
    const streams: Record<string, Array<[bigint, string]>> = {};
    for (let i = 0; i < 500; i++) streams[`{app="r${i}"}`] = [[t, 'x']];
    const res = await pushProto(request(streams), 'many-refused');
    expect(res.status).toBe(429);
    expect(res.text).toBe(
      `Maximum active stream limit exceeded when trying to create stream {app="r499", service_name="r499"}, reduce the number of active streams (reduce labels or reduce label values), or contact your Loki administrator to see if the limit can be increased, user: 'many-refused'\n`,
    );
  });

  it("answers the ingester's refusal, not the validation error, when a push has both", async () => {
    const t = nowNs();
    const res = await pushProto(
      request({
        '{app="p1"}': [[t, 'kept']],
        '{app="p2"}': [[t, 'over the stream limit']],
        '{app="p3"}': [[t, 'x'.repeat(150)]],
      }),
      'precedence',
    );
    expect(res).toEqual({
      status: 429,
      text: `Maximum active stream limit exceeded when trying to create stream {app="p2", service_name="p2"}, reduce the number of active streams (reduce labels or reduce label values), or contact your Loki administrator to see if the limit can be increased, user: 'precedence'\n`,
    });
    expect(readFromIngester(sut, 'precedence', '{app="p1"}').map((e) => e.line)).toEqual(['kept']);
    // With only the validation error left, that one is answered.
    const invalidOnly = await pushProto(
      request({ '{app="p1"}': [[t + 1n, 'more']], '{app="p3"}': [[t, 'x'.repeat(150)]] }),
      'precedence',
    );
    expect(invalidOnly.status).toBe(400);
    expect(invalidOnly.text).toBe(
      `Max entry size '100' bytes exceeded for stream '{app="p3", service_name="p3"}' while adding an entry with length '150' bytes\n`,
    );
  });

  it('refuses entries over per_stream_rate_limit with 429, storing the rest of the stream', async () => {
    const t = nowNs();
    const line = (c: string) => c.repeat(90);
    const res = await pushProto(
      request({
        '{app="hot"}': [
          [t, line('a')],
          [t + 1n, line('b')],
          [t + 2n, line('c')],
        ],
        '{app="cold"}': [[t, 'quiet']],
      }),
      'slow-stream',
    );
    expect(res).toEqual({
      status: 429,
      text: `Per stream rate limit exceeded (limit: 100B/sec) while attempting to ingest for stream '{app="hot", service_name="hot"}' totaling 90B, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased\n`,
    });
    expect(readFromIngester(sut, 'slow-stream', '{app="hot"}').map((e) => e.line)).toEqual([
      line('a'),
      line('b'),
    ]);
    expect(readFromIngester(sut, 'slow-stream', '{app="cold"}')).toHaveLength(1);
    expect(
      metricValue(await scrape(), 'loki_discarded_samples_total', {
        reason: 'per_stream_rate_limit',
        tenant: 'slow-stream',
      }),
    ).toBe(1);
  });

  it('refuses entries too far behind the newest of their stream', async () => {
    const t = nowNs();
    expect((await pushProto(request({ '{app="ooo"}': [[t, 'new']] }))).status).toBe(204);
    const res = await pushProto(request({ '{app="ooo"}': [[t - 2n * 3600n * 1000n * NS, 'old']] }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('entry too far behind');
  });

  it('truncates long lines with max_line_size_truncate', async () => {
    const res = await pushProto(
      request({ '{app="trunc"}': [[nowNs(), 'w'.repeat(150)]] }),
      'truncating',
    );
    expect(res.status).toBe(204);
    expect(readFromIngester(sut, 'truncating', '{app="trunc"}')[0].line).toBe('w'.repeat(100));
  });

  it('answers 422 to a push without streams and 204 to streams without entries', async () => {
    const none = await post('/loki/api/v1/push', '{"streams":[]}', {
      'content-type': 'application/json',
    });
    expect(none).toEqual({
      status: 422,
      text: 'error at least one valid stream is required for ingestion\n',
    });
    const empty = await post(
      '/loki/api/v1/push',
      '{"streams":[{"stream":{"a":"b"},"values":[]}]}',
      {
        'content-type': 'application/json',
      },
    );
    expect(empty.status).toBe(204);
  });

  it('answers malformed bodies with 400, never 500', async () => {
    const req = request({ '{app="bad"}': [[nowNs(), 'a line long enough to cut']] });
    const raw = encodePushProtobufRaw(req);
    const snappy = encodePushProtobuf(req);
    const cases: Array<[string, Buffer | string, Record<string, string>]> = [
      [
        'not snappy',
        Buffer.from('definitely not snappy'),
        { 'content-type': 'application/x-protobuf' },
      ],
      ['truncated snappy', snappy.subarray(0, snappy.length - 5), {}],
      ['protobuf without snappy', raw, { 'content-type': 'application/x-protobuf' }],
      [
        'bad gzip',
        Buffer.from('nope'),
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      ],
      ['bad JSON', '{"streams": [', { 'content-type': 'application/json' }],
      [
        'bad labels',
        '{"streams":[{"labels":"{a=","entries":[{"ts":"2024-01-01T00:00:00Z","line":"x"}]}]}',
        { 'content-type': 'application/json' },
      ],
    ];
    for (const [what, body, headers] of cases) {
      const res = await post('/loki/api/v1/push', body, headers);
      expect(res.status, what).toBe(400);
      expect(res.text.length, what).toBeGreaterThan(1);
    }
    expect(
      (
        await post('/loki/api/v1/push', encodePushJson(request({})), {
          'content-type': 'application/json',
          'content-encoding': 'br',
        })
      ).status,
    ).toBe(400);
  });

  it('refuses bodies over distributor.max_recv_msg_size, compressed or not, with 413', async () => {
    const big = Buffer.alloc(70 * 1024, 'a');
    const direct = await post('/loki/api/v1/push', big, {
      'content-type': 'application/x-protobuf',
    });
    expect(direct).toEqual({
      status: 413,
      text: 'request body too large: the limit is 65536 bytes\n',
    });
    // 1 MB of JSON gzips to ~1 KB: the limit applies after decompression too.
    const bomb = gzipSync(Buffer.from(`{"streams":[],"pad":"${'p'.repeat(1 << 20)}"}`));
    const res = await post('/loki/api/v1/push', bomb, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(413);
    expect(res.text).toContain('request body too large');
    // Without a Content-Length the limit is counted as the bytes arrive.
    const streamed = await postChunked(
      `${sut.url}/loki/api/v1/push`,
      Array.from({ length: 5 }, () => Buffer.alloc(16 * 1024, 'b')),
      { 'content-type': 'application/x-protobuf', 'x-scope-orgid': 'team-a' },
    );
    expect(streamed).toEqual({
      status: 413,
      text: 'request body too large: the limit is 65536 bytes\n',
    });
  });

  it('keeps every body of many concurrent pushes apart, chunked or not', async () => {
    // Bodies are read into reused memory: a mix-up would store one push's lines under another.
    const t = nowNs();
    const pushes = Array.from({ length: 40 }, (_, i) => {
      const rows = Array.from(
        { length: 20 },
        (_, j) => [t + BigInt(j), `push ${i} line ${j} ${'z'.repeat(i * 2)}`] as Row,
      );
      const body = encodePushProtobuf(request({ [`{app="concurrent", push="${i}"}`]: rows }));
      const headers = { 'content-type': 'application/x-protobuf', 'x-scope-orgid': 'team-a' };
      const half = body.length >> 1;
      return i % 2 === 0
        ? post('/loki/api/v1/push', body, { 'content-type': 'application/x-protobuf' })
        : postChunked(
            `${sut.url}/loki/api/v1/push`,
            [body.subarray(0, half), body.subarray(half)],
            headers,
          );
    });
    for (const answer of await Promise.all(pushes))
      expect(answer).toEqual({ status: 204, text: '' });
    for (let i = 0; i < 40; i++) {
      const stored = readFromIngester(sut, 'team-a', `{app="concurrent", push="${i}"}`);
      expect(stored.map((e) => e.line)).toEqual(
        Array.from({ length: 20 }, (_, j) => `push ${i} line ${j} ${'z'.repeat(i * 2)}`),
      );
    }
  });
});

function lines(n: number): Row[] {
  const t = nowNs();
  return Array.from({ length: n }, (_, i) => [t + BigInt(i), `line ${i} ${'x'.repeat(40)}`] as Row);
}
