import { existsSync } from 'node:fs';
import { SERVER_MAIN, ServerProcess, type ServerProcessOptions } from '@logsvc/bench/testing';
import { afterAll, beforeAll } from 'vitest';
import { HttpStatusError } from './loki-api';

export { ServerProcess };

/**
 * Flags every e2e server gets: quiet logs, and no multi-tenancy (as Loki's own single-binary
 * example config), so clients push without an X-Scope-OrgID header; otherwise Loki's defaults.
 */
const E2E_FLAGS = ['-log.level=warn', '-auth.enabled=false'];

/** Starts the built binary (the root `npm test` builds first) on a free 127.0.0.1 port. */
export async function startServer(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  if (!existsSync(SERVER_MAIN))
    throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first`);
  return ServerProcess.start({ ...options, flags: [...E2E_FLAGS, ...(options.flags ?? [])] });
}

/** Polls `probe` every 100 ms until it returns a value other than undefined. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      if (err instanceof HttpStatusError && err.status >= 400 && err.status < 500) throw err;
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * For a describe block: the servers its tests push here, disposed after them newest first (the
 * first process on a data directory owns, and removes, it).
 */
export function disposedAfterAll(): ServerProcess[] {
  const started: ServerProcess[] = [];
  afterAll(async () => {
    for (const p of started.reverse()) await p.dispose();
  });
  return started;
}

/** For a describe block: a server started before its tests and disposed after them. */
export function serverForAll(options: ServerProcessOptions = {}): () => ServerProcess {
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startServer(options);
  });
  afterAll(async () => {
    await server?.dispose();
  });
  return () => server!;
}
