import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EMPTY_LABELS,
  labelsToString,
  parseLabels,
  type Labels,
  type Matcher,
  type PushRequest,
} from '@logsvc/api';
import type { Direction } from '@logsvc/chunk';
import { LogsvcError } from '@logsvc/errors';
import {
  DEFAULT_INGESTER_CONFIG,
  DEFAULT_TENANT_LIMITS,
  IngestError,
  Ingester,
  LocalIngesterClient,
  newQueryStats,
  type IngesterClient,
  type IngesterReadStats,
  type PushOutcome,
  type StreamQueryResult,
} from '@logsvc/ingester';
import { startGrpcServer, type RunningGrpcServer } from '../server/grpc-server';
import { ingesterGrpcServices } from '../server/grpc-services';
import { SILENT_RPC_LOGGER } from '../server/handler';
import { PUSHER_SERVICE, QUERIER_SERVICE } from '../services';
import { GrpcIngesterClient } from './grpc-ingester-client';
import { RpcChannel } from './rpc-channel';

const SECOND = 1_000_000_000n;
/** 2024-01-01T00:00:00Z in ns. */
const T0 = 1_704_067_200n * SECOND;
const MiB = 1 << 20;
/** Lines that are not UTF-8: they must arrive as the same bytes. */
const NOT_UTF8 = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28]);
const eq = (name: string, value: string): Matcher => ({ type: '=', name, value });

/** Two streams, one of 300 entries (over many 4 KiB batches), with metadata and raw bytes. */
function bigPush(): PushRequest {
  const entries = Array.from({ length: 300 }, (_, i) => ({
    timestampNs: T0 + BigInt(i) * 1_000_000n + (i % 3 === 0 ? 7n : 0n),
    line: i % 10 === 0 ? Buffer.concat([NOT_UTF8, Buffer.from(` #${i}`)]) : line(i),
    structuredMetadata:
      i % 2 === 0 ? parseLabels(`{trace_id="t${i}", user="ü${i % 4}"}`) : EMPTY_LABELS,
  }));
  return {
    streams: [
      { labels: parseLabels('{app="api", env="prod"}'), entries },
      {
        labels: parseLabels('{app="web", env="dev"}'),
        entries: [{ timestampNs: T0 + 5n, line: Buffer.from('web up'), structuredMetadata: [] }],
      },
    ],
  };
}

function line(i: number): Buffer {
  return Buffer.from(`GET /api/items/${i} status=${i % 7 === 0 ? 500 : 200} ${'x'.repeat(40)}`);
}

/** Everything a user could notice in query results, read out of their cursors. */
function readOut(results: StreamQueryResult[]) {
  return results.map((r) => {
    const entries: { ts: bigint; line: string; metadata: Labels }[] = [];
    while (r.entries.next()) {
      entries.push({
        ts: r.entries.timestampNs,
        line: r.entries.line.toString('hex'),
        metadata: r.entries.structuredMetadata,
      });
    }
    return { labels: labelsToString(r.labels), fingerprint: r.fingerprint, entries };
  });
}

function startIngester(tenantStreams = 0): Promise<Ingester> {
  const ingester = new Ingester({
    config: {
      ...DEFAULT_INGESTER_CONFIG,
      wal: { enabled: false, dir: '', checkpoint_duration: 60_000 },
    },
    sink: { putChunks: async () => {} },
    limits: () => ({
      ...DEFAULT_TENANT_LIMITS,
      max_streams_per_user: 0,
      max_global_streams_per_user: tenantStreams,
    }),
    now: () => 1_704_067_300_000,
    backgroundLoops: false,
  });
  return ingester.start().then(() => ingester);
}

async function serve(ingester: IngesterClient, queryBatchBytes = 4096) {
  return startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    maxRecvMsgSize: 16 * MiB,
    maxSendMsgSize: 16 * MiB,
    services: ingesterGrpcServices(ingester, SILENT_RPC_LOGGER, queryBatchBytes),
  });
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const entry = (ts: bigint, line: string) => ({
  timestampNs: T0 + ts,
  line: Buffer.from(line),
  structuredMetadata: EMPTY_LABELS,
});

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function rejection(promise: Promise<unknown>): Promise<LogsvcError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LogsvcError);
  return err as LogsvcError;
}

describe('GrpcIngesterClient against a real ingester', () => {
  let ingester: Ingester;
  let local: LocalIngesterClient;
  let server: RunningGrpcServer;
  let sut: GrpcIngesterClient;

  beforeEach(async () => {
    ingester = await startIngester();
    local = new LocalIngesterClient(ingester);
    server = await serve(local);
    sut = new GrpcIngesterClient(`127.0.0.1:${server.port}`, { timeoutMs: 5_000 });
  });
  afterEach(async () => {
    sut.close();
    await server.stop(0);
    await ingester.shutdown({ flush: false });
  });

  it('stores a push and answers queries with the same entries as the ingester in-process', async () => {
    const outcome = await sut.push('t', bigPush());
    expect(outcome).toEqual({
      appended: 301,
      appendedBytes: expect.any(Number),
      duplicates: 0,
      errors: [],
    });
    expect((await sut.push('t', bigPush())).duplicates).toBe(301);

    const cases: { direction: Direction; lineContains?: Buffer }[] = [
      { direction: 'forward' },
      { direction: 'backward' },
      { direction: 'forward', lineContains: Buffer.from('status=500') },
      { direction: 'backward', lineContains: NOT_UTF8.subarray(0, 3) },
    ];
    for (const c of cases) {
      const select = { matchers: [eq('app', 'api')], fromNs: T0, throughNs: T0 + SECOND, ...c };
      const remoteStats: IngesterReadStats = { ...newQueryStats(), ingestersReached: 0 };
      const localStats: IngesterReadStats = { ...newQueryStats(), ingestersReached: 0 };
      const remote = readOut(await sut.query('t', select, remoteStats));
      const direct = readOut(await local.query('t', select, localStats));
      expect(remote).toEqual(direct);
      expect(remote[0].entries.length).toBeGreaterThan(0);
      expect(remoteStats).toEqual(localStats);
      expect(remoteStats.ingestersReached).toBe(1);
    }

    const [api] = readOut(
      await sut.query('t', {
        matchers: [eq('env', 'prod')],
        fromNs: T0,
        throughNs: T0 + SECOND,
        direction: 'forward',
      }),
    );
    expect(api.entries).toHaveLength(300);
    expect(Buffer.from(api.entries[0].line, 'hex').subarray(0, 6)).toEqual(NOT_UTF8);
    expect(api.entries[0].metadata).toEqual(parseLabels('{trace_id="t0", user="ü0"}'));
  });

  it('answers label names and values, series and volume as the ingester does', async () => {
    await sut.push('t', bigPush());
    const query = { fromNs: T0, throughNs: T0 + SECOND };
    expect(await sut.labelNames('t', query)).toEqual(['app', 'env']);
    expect(await sut.labelValues('t', 'app', query)).toEqual(['api', 'web']);
    expect(await sut.labelValues('t', 'app', { ...query, matchers: [eq('env', 'dev')] })).toEqual([
      'web',
    ]);
    expect(await sut.labelNames('other-tenant', query)).toEqual([]);

    const lists = [[eq('app', 'web')], [{ type: '=~', name: 'env', value: 'pr.*' } as Matcher]];
    const series = await sut.series('t', lists, T0, T0 + SECOND);
    expect(series).toEqual(await local.series('t', lists, T0, T0 + SECOND));
    expect(series.map(labelsToString).sort()).toEqual([
      '{app="api", env="prod"}',
      '{app="web", env="dev"}',
    ]);

    const volume = await sut.volume('t', [eq('app', 'api')], T0, T0 + SECOND);
    expect(volume).toEqual(await local.volume('t', [eq('app', 'api')], T0, T0 + SECOND));
    expect(volume[0].bytes).toBeGreaterThan(300 * 40);
  });

  it("lists the tenants in the ingester's memory over Tenants, a call naming no tenant", async () => {
    expect(await sut.tenants()).toEqual([]);
    await sut.push('t', bigPush());
    await sut.push('u', bigPush());
    expect((await sut.tenants()).sort()).toEqual(['t', 'u']);
  });

  it('reports per-stream refusals with the kind and text the ingester gave', async () => {
    await ingester.shutdown({ flush: false });
    ingester = await startIngester(1);
    sut.close();
    await server.stop(0);
    local = new LocalIngesterClient(ingester);
    server = await serve(local);
    sut = new GrpcIngesterClient(`127.0.0.1:${server.port}`, { timeoutMs: 5_000 });
    const outcome = await sut.push('t', bigPush());

    expect(outcome.appended).toBe(300);
    expect(outcome.errors).toHaveLength(1);
    const [refusal] = outcome.errors;
    expect(refusal).toBeInstanceOf(IngestError);
    expect(refusal).toMatchObject({
      kind: 'limit',
      reason: 'stream_limit',
      discardedEntries: 1,
      httpStatus: 429,
      message: expect.stringContaining(
        `Maximum active stream limit exceeded when trying to create stream {app="web", env="dev"}`,
      ),
    });
    expect(refusal.discardedBytes).toBe('web up'.length);
  });

  it('fails whole calls with the LogsvcError the ingester threw (kind, text, HTTP status)', async () => {
    const badRegex = {
      matchers: [{ type: '=~', name: 'app', value: '(' } as Matcher],
      fromNs: T0,
      throughNs: T0 + SECOND,
      direction: 'forward' as const,
    };
    await sut.push('t', bigPush());
    const direct = await rejection(local.query('t', badRegex));
    const remote = await rejection(sut.query('t', badRegex));
    expect({ kind: remote.kind, message: remote.message, status: remote.httpStatus }).toEqual({
      kind: direct.kind,
      message: direct.message,
      status: 400,
    });

    await ingester.shutdown({ flush: false });
    const stopped = await rejection(sut.push('t', bigPush()));
    expect([stopped.kind, stopped.httpStatus, stopped.message]).toEqual([
      'unavailable',
      503,
      'no ingester is running in this process to accept the push',
    ]);
  });

  it('answers malformed requests with INVALID_ARGUMENT and keeps serving', async () => {
    const raw = new RpcChannel(`127.0.0.1:${server.port}`, PUSHER_SERVICE, 'Pusher');
    try {
      const err = await rejection(
        raw.unary(PUSHER_SERVICE.Push, 't', Buffer.from([0x0a, 0x7f, 0x01])),
      );
      expect(err.kind).toBe('bad_request');
      expect(err.message).toMatch(/^error decoding push request/);
    } finally {
      raw.close();
    }
    const querier = new RpcChannel(`127.0.0.1:${server.port}`, QUERIER_SERVICE, 'Querier');
    try {
      // A length running past the end of the message, and a match type that does not exist.
      const truncated = Buffer.from([0x2a, 0x10, 0x08]);
      const label = await rejection(querier.unary(QUERIER_SERVICE.Label, 't', truncated));
      expect(label.kind).toBe('bad_request');
      expect(label.message).toMatch(/^malformed \/logproto.Querier\/Label request: /);
      const badType = Buffer.from([0x0a, 0x02, 0x08, 0x09]);
      const query = await rejection(
        querier.serverStream(QUERIER_SERVICE.Query, 't', badType, () => {}),
      );
      expect([query.kind, query.message]).toEqual(['bad_request', 'unknown matcher type 9']);
    } finally {
      querier.close();
    }
    expect((await sut.push('t', bigPush())).appended).toBe(301);
  });

  it('cuts big answers into messages below the receiver limit', async () => {
    const small = new GrpcIngesterClient(`127.0.0.1:${server.port}`, { maxRecvMsgSize: 8192 });
    try {
      await sut.push('t', bigPush());
      const select = { matchers: [eq('app', 'api')], fromNs: T0, throughNs: T0 + SECOND };
      const results = await small.query('t', { ...select, direction: 'forward' });
      expect(readOut(results)[0].entries).toHaveLength(300);
    } finally {
      small.close();
    }
  });

  it('streams live entries of the selected streams over Tail until closed, and ends the subscription', async () => {
    const seen: string[] = [];
    let ended: Error | undefined;
    const sub = await sut.tail(
      't',
      [eq('app', 'api')],
      (labels, entries) => {
        for (const e of entries)
          seen.push(`${labelsToString(labels)} ${e.timestampNs - T0} ${e.line}`);
      },
      (err) => (ended = err),
    );
    expect(local.tails.count('t')).toBe(1);
    await sut.push('t', {
      streams: [
        { labels: parseLabels('{app="api"}'), entries: [entry(1n, 'one'), entry(2n, 'two')] },
        { labels: parseLabels('{app="db"}'), entries: [entry(3n, 'not selected')] },
      ],
    });
    await waitUntil(() => seen.length === 2);
    expect(seen).toEqual(['{app="api"} 1 one', '{app="api"} 2 two']);
    sub.close();
    await waitUntil(() => local.tails.count('t') === 0);
    expect(ended).toBeUndefined();
  });

  it("counts a tenant's open tails over TailersCount, as the ingester holds them", async () => {
    expect(await sut.tailersCount('t')).toBe(0);
    const first = await sut.tail('t', [eq('app', 'api')], () => {});
    const second = await sut.tail('t', [eq('app', 'db')], () => {});
    const other = await sut.tail('u', [eq('app', 'api')], () => {});
    expect(await sut.tailersCount('t')).toBe(2);
    expect(await sut.tailersCount('u')).toBe(1);
    expect(await sut.tailersCount('nobody')).toBe(0);
    first.close();
    await waitUntil(() => local.tails.count('t') === 1);
    expect(await sut.tailersCount('t')).toBe(1);
    second.close();
    other.close();
  });

  it('tells the tail when the ingester ends it', async () => {
    let ended: Error | undefined;
    await sut.tail(
      't',
      [eq('app', 'api')],
      () => {},
      (err) => (ended = err),
    );
    await server.stop(0);
    await waitUntil(() => ended !== undefined);
    expect(ended).toBeInstanceOf(Error);
  });
});

describe('GrpcIngesterClient when the ingester is away', () => {
  const open: { close(): void }[] = [];
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
  });

  it('rejects at once with `unavailable` when nothing listens at the address', async () => {
    const sut = new GrpcIngesterClient(`127.0.0.1:${await closedPort()}`, { timeoutMs: 3_000 });
    open.push(sut);
    const started = Date.now();
    const err = await rejection(sut.push('t', bigPush()));
    expect(err.kind).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('rejects with `unavailable` at the deadline when the address never answers', async () => {
    // Accepts connections and never speaks HTTP/2.
    const sockets: Socket[] = [];
    const silent: NetServer = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    open.push({
      close: () => {
        for (const s of sockets) s.destroy();
        silent.close();
      },
    });
    const sut = new GrpcIngesterClient(`127.0.0.1:${(silent.address() as { port: number }).port}`, {
      timeoutMs: 300,
    });
    open.push(sut);
    const started = Date.now();
    const err = await rejection(sut.labelNames('t', { fromNs: 0n, throughNs: T0 }));
    expect(err.kind).toBe('unavailable');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('rejects a query with `unavailable` when the server stops in the middle of it', async () => {
    let entered!: () => void;
    const queryRunning = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    class StallingIngester extends LocalIngesterClient {
      override async query(): Promise<StreamQueryResult[]> {
        entered();
        await released;
        return [];
      }
    }
    const server = await serve(new StallingIngester());
    const sut = new GrpcIngesterClient(`127.0.0.1:${server.port}`);
    open.push(sut);

    const answer = sut.query('t', {
      matchers: [eq('app', 'api')],
      fromNs: T0,
      throughNs: T0 + SECOND,
      direction: 'forward',
    });
    const failure = rejection(answer);
    await queryRunning;
    await server.stop(0);
    const err = await failure;
    expect(err.kind).toBe('unavailable');
    release(); // the handler finishing after its call is gone must not throw either
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('lets a push in flight finish when stopped with a grace period', async () => {
    let entered!: () => void;
    const pushRunning = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    class SlowIngester extends LocalIngesterClient {
      override async push(): Promise<PushOutcome> {
        entered();
        await released;
        return { appended: 1, appendedBytes: 3, duplicates: 0, errors: [] };
      }
    }
    const server = await serve(new SlowIngester());
    const sut = new GrpcIngesterClient(`127.0.0.1:${server.port}`);
    open.push(sut);

    const outcome = sut.push('t', bigPush());
    await pushRunning;
    const stopped = server.stop(5_000);
    release();
    expect(await outcome).toMatchObject({ appended: 1 });
    await stopped;
    const after = await rejection(sut.push('t', bigPush()));
    expect(after.kind).toBe('unavailable');
  });

  it('serves only the services it was given (UNIMPLEMENTED otherwise)', async () => {
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      maxRecvMsgSize: MiB,
      maxSendMsgSize: MiB,
      services: [],
    });
    const sut = new GrpcIngesterClient(`127.0.0.1:${server.port}`);
    open.push(sut);
    try {
      const err = await rejection(sut.push('t', bigPush()));
      expect(err.kind).toBe('internal');
      expect(err.message).toMatch(/does not implement the method \/logproto.Pusher\/Push/);
    } finally {
      await server.stop(0);
    }
  });
});
