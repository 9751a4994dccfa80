import { LocalIngesterClient } from '@logsvc/ingester';
import { Querier } from '@logsvc/querier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { TailSockets } from '../src/modules/querier/tail/tail-sockets.service';
import { type TestServer, startTestServer } from './harness';
import { nowNs } from './read-helpers';
import { droppedCount, openTail, refusedTail, tailLines, tailUrl } from './tail-client';

const SECOND_NS = 1_000_000_000n;
const TENANT = 'team-a';

describe('tail (WebSocket)', () => {
  let sut: TestServer;

  beforeAll(async () => {
    sut = await startTestServer({
      config: {
        limits_config: {
          max_concurrent_tail_requests: 3,
          // The slow-reader test pushes 40 MB in a few seconds.
          ingestion_rate_mb: 1000,
          ingestion_burst_size_mb: 1000,
          per_stream_rate_limit: '1000MB',
          per_stream_rate_limit_burst: '1000MB',
        },
      },
    });
  });
  afterAll(() => sut.close());

  const url = (params: Record<string, string>, path = '/loki/api/v1/tail') =>
    tailUrl(sut.url, path, params);
  const asTenant = (tenant = TENANT) => ({ 'X-Scope-OrgID': tenant });

  async function push(
    labels: Record<string, string>,
    rows: [bigint, string][],
    tenant = TENANT,
  ): Promise<void> {
    const res = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { ...asTenant(tenant), 'content-type': 'application/json' },
      body: JSON.stringify({
        streams: [{ stream: labels, values: rows.map(([ts, line]) => [String(ts), line]) }],
      }),
    });
    expect(res.status).toBe(204);
  }

  const tails = () => sut.server.app.get(TailSockets);
  const hub = () => sut.server.app.get(LocalIngesterClient).tails;

  async function closeAndSettle(socket: WebSocket): Promise<void> {
    socket.close(1000);
    await new Promise((r) => socket.once('close', r));
    for (let i = 0; i < 50 && tails().openSockets > 0; i++)
      await new Promise((r) => setTimeout(r, 10));
  }

  it('sends the past entries first, then live ones as they are pushed, in Loki’s v1 shape', async () => {
    const t = nowNs();
    await push({ app: 'live' }, [[t - 2n * SECOND_NS, 'past one']]);
    const client = await openTail(url({ query: '{app="live"}' }), asTenant());
    await client.waitFor((m) => m.length === 1);
    expect(client.raw[0]).toBe(
      `{"streams":[{"stream":{"app":"live","detected_level":"unknown","service_name":"live"},"values":[["${t - 2n * SECOND_NS}","past one"]]}]}`,
    );
    await push({ app: 'live', pod: 'p1' }, [[nowNs(), 'live <one>']]);
    await client.waitFor((m) => tailLines(m).length === 2);
    await push({ app: 'live' }, [[nowNs(), 'live two']]);
    await push({ app: 'other' }, [[nowNs(), 'not selected']]);
    await push({ app: 'live' }, [[nowNs(), 'other tenant']], 'team-b');
    await client.waitFor((m) => tailLines(m).length === 3);
    expect(tailLines(client.messages)).toEqual(['past one', 'live <one>', 'live two']);
    expect(client.raw[1]).toContain('"live \\u003cone\\u003e"');
    await closeAndSettle(client.socket);
  });

  it('runs the whole pipeline on live entries', async () => {
    const query =
      '{app="pipe"} |= "keep" | logfmt | level="error" | line_format "{{.level}}: {{.msg}}"';
    const client = await openTail(url({ query }), asTenant());
    await push({ app: 'pipe' }, [
      [nowNs(), 'level=error msg=kept keep'],
      [nowNs() + 1n, 'level=info msg=wrong-level keep'],
      [nowNs() + 2n, 'level=error msg=no-keyword'],
    ]);
    await client.waitFor((m) => tailLines(m).length === 1);
    const first = client.messages[0] as { streams: { stream: Record<string, string> }[] };
    expect(first.streams[0].stream).toMatchObject({ app: 'pipe', level: 'error', msg: 'kept' });
    expect(tailLines(client.messages)).toEqual(['error: kept']);
    await closeAndSettle(client.socket);
  });

  it('splits labels into categories when asked as Grafana asks, past and live entries alike', async () => {
    const t = nowNs();
    await push({ app: 'cat' }, [[t - SECOND_NS, 'level=warn msg=past']]);
    const categorized = { ...asTenant(), 'X-Loki-Response-Encoding-Flags': 'categorize-labels' };
    const parsed = await openTail(url({ query: '{app="cat"} | logfmt' }), categorized);
    const bare = await openTail(url({ query: '{app="cat"}' }), categorized);
    await parsed.waitFor((m) => m.length === 1);
    await bare.waitFor((m) => m.length === 1);
    const stream = `{"app":"cat","service_name":"cat"}`;
    expect(parsed.raw[0]).toBe(
      `{"streams":[{"stream":${stream},"values":[["${t - SECOND_NS}","level=warn msg=past",` +
        `{"structuredMetadata":{"detected_level":"warn"},"parsed":{"level":"warn","msg":"past"}}]]}],` +
        `"encodingFlags":["categorize-labels"]}`,
    );
    const live = nowNs();
    await push({ app: 'cat' }, [[live, 'msg=live']]);
    await parsed.waitFor((m) => m.length === 2);
    await bare.waitFor((m) => m.length === 2);
    expect(parsed.raw[1]).toBe(
      `{"streams":[{"stream":${stream},"values":[["${live}","msg=live",` +
        `{"structuredMetadata":{"detected_level":"unknown"},"parsed":{"msg":"live"}}]]}],` +
        `"encodingFlags":["categorize-labels"]}`,
    );
    // Without stages, an entry keeps its structured metadata, as pushed.
    expect(bare.raw[1]).toBe(
      `{"streams":[{"stream":${stream},"values":[["${live}","msg=live",` +
        `{"structuredMetadata":{"detected_level":"unknown"}}]]}],"encodingFlags":["categorize-labels"]}`,
    );
    await closeAndSettle(parsed.socket);
    await closeAndSettle(bare.socket);
  });

  it("takes Grafana's request (query, start, limit): past entries since start, the newest `limit`", async () => {
    const t = nowNs();
    await push({ app: 'grafana' }, [
      [t - 600n * SECOND_NS, 'before start'],
      [t - 120n * SECOND_NS, 'a'],
      [t - 60n * SECOND_NS, 'b'],
      [t - 30n * SECOND_NS, 'c'],
    ]);
    const client = await openTail(
      url({ query: '{app="grafana"}', start: String(t - 300n * SECOND_NS), limit: '2' }),
      asTenant(),
    );
    await client.waitFor((m) => tailLines(m).length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(tailLines(client.messages)).toEqual(['b', 'c']);
    await closeAndSettle(client.socket);
  });

  it("refuses bad requests before the upgrade with Loki's status and text", async () => {
    expect(await refusedTail(url({ query: '{app="x"}', delay_for: '6' }), asTenant())).toEqual({
      status: 400,
      body: "delay_for can't be greater than 5",
    });
    expect(await refusedTail(url({ query: '{app="x"}', delay_for: 'x' }), asTenant())).toEqual({
      status: 400,
      body: 'strconv.Atoi: parsing "x": invalid syntax',
    });
    expect(await refusedTail(url({ query: '{app="x"' }), asTenant())).toEqual({
      status: 400,
      body: 'parse error at line 1, col 9: syntax error: unexpected $end, expecting } or ,',
    });
    expect(await refusedTail(url({ query: '{app="x"}' }), asTenant('a|b'))).toEqual({
      status: 400,
      body: 'multiple org IDs present',
    });
    expect(await refusedTail(url({ query: '{app="x"}' }))).toEqual({
      status: 401,
      body: 'no org id\n',
    });
  });

  it('answers a request without the WebSocket upgrade as gorilla/websocket does', async () => {
    const res = await fetch(`${sut.url}/loki/api/v1/tail?query=${encodeURIComponent('{a="b"}')}`, {
      headers: asTenant(),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('sec-websocket-version')).toBe('13');
    expect(await res.text()).toBe('Bad Request\n');
  });

  it('closes a metric query with 1011 and the reason', async () => {
    const client = await openTail(url({ query: 'rate({app="x"}[1m])' }), asTenant());
    expect(await client.closed).toEqual({
      code: 1011,
      reason: 'only log selector is supported',
    });
  });

  it("refuses the tenant's tail over max_concurrent_tail_requests with Loki's close, and frees slots on close", async () => {
    const open = await Promise.all(
      [1, 2, 3].map(() => openTail(url({ query: '{app="slots"}' }), asTenant('slots'))),
    );
    await new Promise((r) => setTimeout(r, 50));
    const fourth = await openTail(url({ query: '{app="slots"}' }), asTenant('slots'));
    expect(await fourth.closed).toEqual({
      code: 1011,
      reason:
        'rpc error: code = Code(400) desc = max concurrent tail requests limit exceeded, count > limit (4 > 3)',
    });
    // Another tenant is not affected.
    const other = await openTail(url({ query: '{app="slots"}' }), asTenant('other'));
    await closeAndSettle(other.socket);
    await closeAndSettle(open[0].socket);
    const again = await openTail(url({ query: '{app="slots"}' }), asTenant('slots'));
    await new Promise((r) => setTimeout(r, 50));
    expect(again.socket.readyState).toBe(again.socket.OPEN);
    for (const c of [...open.slice(1), again]) await closeAndSettle(c.socket);
  });

  it('a closed socket frees its subscription, slot and timers', async () => {
    const before = hub().count();
    const socketsBefore = tails().openSockets;
    const client = await openTail(url({ query: '{app="free"}', delay_for: '5' }), asTenant('free'));
    await push({ app: 'free' }, [[nowNs(), 'held for delay_for']], 'free');
    expect(hub().count('free')).toBe(1);
    expect(sut.server.app.get(Querier).openTails('free')).toBe(1);
    await closeAndSettle(client.socket);
    expect(tails().openSockets).toBe(socketsBefore);
    expect(hub().count()).toBe(before);
    expect(hub().count('free')).toBe(0);
    expect(sut.server.app.get(Querier).openTails('free')).toBe(0);
  });

  it('drops entries for a client that does not read, with bounded server memory, and reports them', async () => {
    const client = await openTail(url({ query: '{app="slow"}' }), asTenant('slow'));
    const raw = (client.socket as unknown as { _socket: { pause(): void; resume(): void } })
      ._socket;
    raw.pause();
    const line = 'y'.repeat(1000);
    let maxBuffered = 0;
    // 40 pushes of 1 MB: far more than the kernel's socket buffers and the tail's own.
    for (let i = 0; i < 40; i++) {
      const t = nowNs();
      const rows: [bigint, string][] = Array.from({ length: 1000 }, (_, k) => [
        t + BigInt(k),
        line,
      ]);
      await push({ app: 'slow' }, rows, 'slow');
      maxBuffered = Math.max(maxBuffered, tails().bufferedBytes());
    }
    // At most the 1 MiB limit plus the one message that crossed it (100 entries of ~1 KB).
    expect(maxBuffered).toBeLessThan((1 << 20) + 200_000);
    raw.resume();
    // Until the resumed client has read what the server buffered, new entries are still
    // dropped: push a line every 200 ms until one arrives.
    const seen = client.waitFor(
      (m) => tailLines(m).some((l) => l.startsWith('after the pause')),
      45_000,
    );
    let arrived = false;
    void seen.then(
      () => (arrived = true),
      () => {},
    );
    for (let i = 0; !arrived && i < 200; i++) {
      await push({ app: 'slow' }, [[nowNs(), `after the pause ${i}`]], 'slow');
      await new Promise((r) => setTimeout(r, 200));
    }
    await seen;
    expect(tailLines(client.messages).length).toBeLessThan(40_000);
    expect(droppedCount(client.messages)).toBeGreaterThan(0);
    const withDropped = client.messages.find(
      (m) => (m as { dropped_entries?: unknown[] }).dropped_entries !== undefined,
    ) as { dropped_entries: { labels: Record<string, string>; timestamp: string }[] };
    // A query without stages tails the stream's own labels (no structured metadata), as Loki.
    expect(withDropped.dropped_entries[0].labels).toEqual({ app: 'slow', service_name: 'slow' });
    expect(withDropped.dropped_entries[0].timestamp).toMatch(/^\d{19}$/);
    await closeAndSettle(client.socket);
  }, 90_000);

  it('serves the deprecated /api/prom/tail with the legacy message shape', async () => {
    const t = nowNs();
    const client = await openTail(url({ query: '{app="legacy"}' }, '/api/prom/tail'), asTenant());
    await push({ app: 'legacy' }, [[t, 'old "shape"']]);
    await client.waitFor((m) => m.length === 1);
    const ts = new Date(Number(t / 1_000_000n)).toISOString().slice(0, 19);
    expect(client.raw[0]).toMatch(
      new RegExp(
        `^\\{"streams":\\[\\{"labels":"\\{app=\\\\"legacy\\\\", service_name=\\\\"legacy\\\\"\\}","entries":\\[\\{"ts":"${ts}\\.\\d+Z","line":"old \\\\"shape\\\\""\\}\\]\\}\\],"dropped_entries":null\\}\\n$`,
      ),
    );
    await closeAndSettle(client.socket);
  });
});
