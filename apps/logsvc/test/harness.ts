import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseConfig } from '@logsvc/config';
import type { Type } from '@nestjs/common';
import { type LogsvcServer, createServer } from '../src/app';

/** A server started on 127.0.0.1 with a free port and a temporary data directory. */
export interface TestServer {
  server: LogsvcServer;
  url: string;
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
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'logsvc-test-'));
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
  const server = await createServer(config, { logDestination, extraModules: options.extraModules });
  const harness: TestServer = {
    server,
    url: '',
    logs,
    close: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (!options.noStart) {
    await server.start();
    harness.url = server.url();
  }
  return harness;
}
