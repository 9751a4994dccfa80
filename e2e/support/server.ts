import { existsSync } from 'node:fs';
import { SERVER_MAIN, ServerProcess, type ServerProcessOptions } from '@logsvc/bench/testing';
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
