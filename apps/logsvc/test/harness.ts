import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Matcher, labelsToRecord, labelsToString, parseLabels } from '@logsvc/api';
import { type EntryCursor, MemChunk } from '@logsvc/chunk';
import { type Config, parseConfig } from '@logsvc/config';
import type { Type } from '@nestjs/common';
import { type LogsvcServer, type StartupFiles, createServer } from '../src/app';
import { chunkStoreOf } from '../src/modules/core/chunk-store.provider';
import { LocalIngesterClient } from '@logsvc/ingester';
import { encodePushProtobuf } from '@logsvc/push';

/** A server started on 127.0.0.1 with a free port and a temporary data directory. */
export interface TestServer {
  server: LogsvcServer;
  url: string;
  /** The parsed config the server runs with. */
  config: Config;
  /** `common.path_prefix` of the server (WAL, chunks). */
  dataDir: string;
  /** Parsed JSON log lines the server wrote. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Raw YAML-shaped config merged over the test defaults. */
  config?: Record<string, unknown>;
  extraModules?: Type<unknown>[];
  /** Leave start() to the test. */
  noStart?: boolean;
  /** Use this data directory (e.g. a restart over an earlier server's data); close() keeps it. */
  dataDir?: string;
  /** What main.ts would pass: the config file read and the LogService file of the operator. */
  startupFiles?: StartupFiles;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'logsvc-test-'));
  const raw = options.config ?? {};
  const config = parseConfig({
    ...raw,
    server: {
      http_listen_address: '127.0.0.1',
      http_listen_port: 0,
      log_level: 'warn',
      ...(raw.server as object),
    },
    common: { path_prefix: dataDir, ...(raw.common as object) },
  });
  const logs: Array<Record<string, unknown>> = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const server = await createServer(config, {
    logDestination,
    extraModules: options.extraModules,
    startupFiles: options.startupFiles,
  });
  const harness: TestServer = {
    server,
    url: '',
    config,
    dataDir,
    logs,
    close: async () => {
      await server.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (!options.noStart) {
    await server.start();
    harness.url = server.url();
  }
  return harness;
}

// ---- write-path helpers (push, ingester and storage tests) ----

/** One stored entry, flattened for assertions. */
export interface StoredEntry {
  stream: string;
  ts: bigint;
  line: string;
  metadata: Record<string, string>;
}

function equalityMatchers(selector: string): Matcher[] {
  return parseLabels(selector).map((p) => ({ type: '=' as const, name: p.name, value: p.value }));
}

const ALL_TIME: [bigint, bigint] = [0n, 2n ** 62n];

function collect(stream: string, cursor: EntryCursor, out: StoredEntry[]): void {
  while (cursor.next()) {
    out.push({
      stream,
      ts: cursor.timestampNs,
      line: cursor.line.toString('utf8'),
      metadata: labelsToRecord(cursor.structuredMetadata),
    });
  }
}

/**
 * Pushes `lines` (protobuf, consecutive nanoseconds from now) to one stream, then POST /flush;
 * returns both statuses for the test to assert.
 */
export async function pushAndFlush(
  sut: TestServer,
  selector: string,
  lines: readonly string[],
): Promise<{ push: number; flush: number }> {
  const t = BigInt(Date.now()) * 1_000_000n;
  const body = encodePushProtobuf({
    streams: [
      {
        labels: parseLabels(selector),
        entries: lines.map((line, i) => ({
          timestampNs: t + BigInt(i),
          line: Buffer.from(line),
          structuredMetadata: [],
        })),
      },
    ],
  });
  const push = await fetch(`${sut.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf' },
    body,
  });
  const flush = await fetch(`${sut.url}/flush`, { method: 'POST' });
  return { push: push.status, flush: flush.status };
}

/**
 * Entries of the streams matching `selector` (equality matchers only) read through a NEW
 * ChunkStore over the server's object store, as a fresh process would see them.
 */
export async function readFromStore(
  config: Config,
  tenant: string,
  selector: string,
): Promise<StoredEntry[]> {
  const store = chunkStoreOf(config, 'test-reader');
  const out: StoredEntry[] = [];
  for (const series of await store.getChunkRefs(tenant, equalityMatchers(selector), ...ALL_TIME)) {
    const stream = labelsToString(series.labels);
    for (const ref of series.chunks) {
      const chunk = MemChunk.decode(await store.fetchChunk(tenant, ref));
      collect(stream, chunk.iterator(...ALL_TIME, 'forward'), out);
    }
  }
  return out.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.line < b.line ? -1 : 1));
}

/** Entries in the running server's ingester memory for streams matching `selector`. */
export function readFromIngester(sut: TestServer, tenant: string, selector: string): StoredEntry[] {
  const ingester = sut.server.app.get(LocalIngesterClient).ingester;
  if (!ingester) throw new Error('no ingester in this server');
  const out: StoredEntry[] = [];
  const results = ingester.query(tenant, equalityMatchers(selector), ...ALL_TIME, 'forward');
  for (const r of results) collect(labelsToString(r.labels), r.entries, out);
  return out;
}

/** The value of one sample in a Prometheus text scrape, or undefined when absent. */
export function metricValue(
  scrape: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
