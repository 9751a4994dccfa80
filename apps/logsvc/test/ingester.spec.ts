import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PushRequest, parseLabels } from '@logsvc/api';
import { encodePushProtobuf } from '@logsvc/push';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalIngesterClient } from '@logsvc/ingester';
import {
  type TestServer,
  metricValue,
  readFromIngester,
  readFromStore,
  startTestServer,
} from './harness';
import { walDirectory } from '../src/modules/ingester/ingester.service';

const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

function request(labels: string, lines: string[], t0 = nowNs()): PushRequest {
  return {
    streams: [
      {
        labels: parseLabels(labels),
        entries: lines.map((line, i) => ({
          timestampNs: t0 + BigInt(i),
          line: Buffer.from(line),
          structuredMetadata: parseLabels(`{seq="${i}"}`),
        })),
      },
    ],
  };
}

async function push(sut: TestServer, req: PushRequest): Promise<number> {
  const res = await fetch(`${sut.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf' },
    body: encodePushProtobuf(req),
  });
  return res.status;
}

async function call(sut: TestServer, method: string, path: string) {
  const res = await fetch(sut.url + path, { method });
  return { status: res.status, text: await res.text() };
}

const LINES = ['first line', 'second line', 'third line'];

describe('ingester endpoints', () => {
  const servers: TestServer[] = [];
  const dirs: string[] = [];
  const start = async (config: Record<string, unknown> = {}, dataDir?: string) => {
    const sut = await startTestServer({ config: { auth_enabled: false, ...config }, dataDir });
    servers.push(sut);
    return sut;
  };
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'logsvc-ingester-'));
    dirs.push(d);
    return d;
  };
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('GET /flush also flushes', async () => {
    const sut = await start();
    expect(await push(sut, request('{app="getflush"}', LINES))).toBe(204);
    expect((await call(sut, 'GET', '/flush')).status).toBe(204);
    expect((await readFromStore(sut.config, 'fake', '{app="getflush"}')).length).toBe(3);
  });

  it('POST /flush writes every in-memory chunk where a new ChunkStore finds it', async () => {
    const sut = await start();
    expect(await push(sut, request('{app="flushme"}', LINES))).toBe(204);
    expect(await readFromStore(sut.config, 'fake', '{app="flushme"}')).toEqual([]);

    expect(await call(sut, 'POST', '/flush')).toEqual({ status: 204, text: '' });

    const stored = await readFromStore(sut.config, 'fake', '{app="flushme"}');
    expect(stored.map((e) => e.line)).toEqual(LINES);
    expect(stored[1].metadata).toMatchObject({ seq: '1' });
    expect(readFromIngester(sut, 'fake', '{app="flushme"}')).toEqual([]);

    const m = await (await fetch(`${sut.url}/metrics`)).text();
    expect(metricValue(m, 'logsvc_ingester_streams_created_total')).toBe(1);
    expect(metricValue(m, 'loki_ingester_streams_created_total')).toBe(1);
    expect(metricValue(m, 'logsvc_ingester_chunks_flushed_total')).toBe(1);
    expect(metricValue(m, 'loki_ingester_chunks_flushed_total', { reason: 'forced' })).toBe(1);
    expect(metricValue(m, 'logsvc_ingester_chunks_cut_total', { reason: 'forced' })).toBe(1);
    expect(metricValue(m, 'loki_ingester_wal_records_logged_total')).toBe(1);
    expect(metricValue(m, 'logsvc_ingester_wal_logged_bytes_total')).toBeGreaterThan(0);
    expect(metricValue(m, 'logsvc_ingester_memory_streams')).toBe(0);
  });

  it('tracks prepare_shutdown as set/unset, on disk and in /metrics', async () => {
    const sut = await start();
    const marker = join(sut.dataDir, 'shutdown-requested.txt');
    expect(await call(sut, 'GET', '/ingester/prepare_shutdown')).toEqual({
      status: 200,
      text: 'unset',
    });
    expect((await call(sut, 'POST', '/ingester/prepare_shutdown')).status).toBe(204);
    expect(await call(sut, 'GET', '/ingester/prepare_shutdown')).toEqual({
      status: 200,
      text: 'set',
    });
    expect(existsSync(marker)).toBe(true);
    const m = await (await fetch(`${sut.url}/metrics`)).text();
    expect(metricValue(m, 'loki_ingester_shutdown_marker')).toBe(1);
    expect((await call(sut, 'DELETE', '/ingester/prepare_shutdown')).status).toBe(204);
    expect((await call(sut, 'GET', '/ingester/prepare_shutdown')).text).toBe('unset');
    expect(existsSync(marker)).toBe(false);
  });

  it('does not flush on a plain stop with the WAL on, but replays the WAL at the next start', async () => {
    const dir = tempDir();
    const first = await start({}, dir);
    expect(await push(first, request('{app="replay"}', LINES))).toBe(204);
    await first.close(); // what SIGTERM does
    expect(await readFromStore(first.config, 'fake', '{app="replay"}')).toEqual([]);

    const second = await start({}, dir);
    expect(readFromIngester(second, 'fake', '{app="replay"}').map((e) => e.line)).toEqual(LINES);
  });

  it('flushes on a plain stop with wal.flush_on_shutdown, so the store alone has the data', async () => {
    const dir = tempDir();
    const first = await start({ ingester: { wal: { flush_on_shutdown: true } } }, dir);
    expect(await push(first, request('{app="flushed"}', LINES))).toBe(204);
    await first.close(); // what SIGTERM does
    const stored = await readFromStore(first.config, 'fake', '{app="flushed"}');
    expect(stored.map((e) => e.line)).toEqual(LINES);

    // Without the WAL the restarted server holds nothing in memory; the store still answers.
    rmSync(walDirectory(first.config), { recursive: true, force: true });
    const second = await start({ ingester: { wal: { flush_on_shutdown: true } } }, dir);
    expect(readFromIngester(second, 'fake', '{app="flushed"}')).toEqual([]);
    const afterRestart = await readFromStore(second.config, 'fake', '{app="flushed"}');
    expect(afterRestart.map((e) => e.line)).toEqual(LINES);
  });

  it('leaves the data to the WAL on a plain stop with wal.flush_on_shutdown false', async () => {
    const dir = tempDir();
    const config = { ingester: { wal: { flush_on_shutdown: false } } };
    const first = await start(config, dir);
    expect(await push(first, request('{app="walonly"}', LINES))).toBe(204);
    await first.close();
    expect(await readFromStore(first.config, 'fake', '{app="walonly"}')).toEqual([]);

    const second = await start(config, dir);
    expect(readFromIngester(second, 'fake', '{app="walonly"}').map((e) => e.line)).toEqual(LINES);
  });

  it('flushes on stop after prepare_shutdown, and when the WAL is off', async () => {
    const prepared = await start();
    expect(await push(prepared, request('{app="prepared"}', LINES))).toBe(204);
    expect((await call(prepared, 'POST', '/ingester/prepare_shutdown')).status).toBe(204);
    await prepared.server.stop();
    expect((await readFromStore(prepared.config, 'fake', '{app="prepared"}')).length).toBe(3);
    // The marker applied to that shutdown only.
    expect(existsSync(join(prepared.dataDir, 'shutdown-requested.txt'))).toBe(false);

    const noWal = await start({ ingester: { wal: { enabled: false } } });
    expect(await push(noWal, request('{app="nowal"}', LINES))).toBe(204);
    await noWal.server.stop();
    expect((await readFromStore(noWal.config, 'fake', '{app="nowal"}')).length).toBe(3);
  });

  it('/ingester/shutdown flushes and stops the ingester; later calls and pushes get 503', async () => {
    const sut = await start();
    expect(await push(sut, request('{app="shut"}', LINES))).toBe(204);

    expect(
      await call(sut, 'POST', '/ingester/shutdown?terminate=false&delete_ring_tokens=true'),
    ).toEqual({
      status: 204,
      text: '',
    });
    expect((await readFromStore(sut.config, 'fake', '{app="shut"}')).map((e) => e.line)).toEqual(
      LINES,
    );
    expect((await call(sut, 'GET', '/services')).text).toContain('ingester => Terminated\n');
    expect((await call(sut, 'GET', '/ready')).status).toBe(503);
    expect(await call(sut, 'GET', '/ingester/shutdown?terminate=false')).toEqual({
      status: 503,
      text: 'Ingester is stopping or already stopped.\n',
    });
    expect((await call(sut, 'GET', '/ingester/prepare_shutdown')).status).toBe(503);
    expect((await call(sut, 'POST', '/flush')).status).toBe(503);
    expect(await push(sut, request('{app="shut"}', ['late']))).toBe(503);
  });

  it('deletes the ring token file only when delete_ring_tokens asks for it', async () => {
    const dir = tempDir();
    const tokens = join(dir, 'tokens.json');
    writeFileSync(tokens, '{"tokens":[1,2,3]}');
    const kept = await start({ ingester: { lifecycler: { tokens_file_path: tokens } } });
    expect((await call(kept, 'POST', '/ingester/shutdown?terminate=false')).status).toBe(204);
    expect(existsSync(tokens)).toBe(true);

    const deleting = await start({ ingester: { lifecycler: { tokens_file_path: tokens } } });
    expect(
      (await call(deleting, 'POST', '/ingester/shutdown?terminate=false&delete_ring_tokens=true'))
        .status,
    ).toBe(204);
    expect(existsSync(tokens)).toBe(false);
  });

  it('/ingester/shutdown?flush=false leaves the data to the WAL', async () => {
    const dir = tempDir();
    const first = await start({}, dir);
    expect(await push(first, request('{app="noflush"}', LINES))).toBe(204);
    expect((await call(first, 'GET', '/ingester/shutdown?flush=false&terminate=0')).status).toBe(
      204,
    );
    expect(await readFromStore(first.config, 'fake', '{app="noflush"}')).toEqual([]);
    await first.close();

    const second = await start({}, dir);
    expect(readFromIngester(second, 'fake', '{app="noflush"}').map((e) => e.line)).toEqual(LINES);
  });

  it('deprecated /ingester/flush_shutdown flushes without ending the process', async () => {
    const sut = await start();
    expect(await push(sut, request('{app="legacy"}', LINES))).toBe(204);
    expect((await call(sut, 'POST', '/ingester/flush_shutdown')).status).toBe(204);
    expect((await readFromStore(sut.config, 'fake', '{app="legacy"}')).length).toBe(3);
    expect((await call(sut, 'GET', '/services')).text).toContain('server => Running\n');
  });

  it('answers /ready with 503 until the WAL replay has finished', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'wal'));
    // A FIFO as the only segment: replay blocks reading it until we write to it.
    const segment = join(dir, 'wal', '00000001');
    execFileSync('mkfifo', [segment]);
    const sut = await startTestServer({
      config: { auth_enabled: false },
      dataDir: dir,
      noStart: true,
    });
    servers.push(sut);
    const started = sut.server.start();
    let url = '';
    while (!url) {
      try {
        url = sut.server.url();
      } catch {
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    sut.url = url;
    const waiting = await call(sut, 'GET', '/ready');
    expect(waiting.status).toBe(503);
    expect(waiting.text).toContain('Starting: 1');
    expect((await call(sut, 'GET', '/services')).text).toContain('ingester => Starting\n');
    expect(await call(sut, 'POST', '/flush')).toEqual({
      status: 503,
      text: 'Ingester is starting (replaying the WAL).\n',
    });

    const writer = await open(segment, 'w');
    await writer.close(); // an empty segment: replay reaches its end
    await started;
    expect(await call(sut, 'GET', '/ready')).toEqual({ status: 200, text: 'ready\n' });
  });
  it('stops cleanly when asked to stop during WAL replay', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'wal'));
    const segment = join(dir, 'wal', '00000001');
    execFileSync('mkfifo', [segment]);
    const sut = await startTestServer({
      config: { auth_enabled: false },
      dataDir: dir,
      noStart: true,
    });
    const started = sut.server.start();
    while (
      !sut.server.registry.states().some((s) => s.name === 'ingester' && s.state === 'Starting')
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const stopped = sut.server.stop();
    const writer = await open(segment, 'w');
    await writer.close();
    await Promise.all([started, stopped]);
    expect(sut.server.registry.states()).toContainEqual({ name: 'ingester', state: 'Terminated' });
    // No stopped ingester is left behind for the querier to read.
    expect(sut.server.app.get(LocalIngesterClient).ingester).toBeUndefined();
  });
});
