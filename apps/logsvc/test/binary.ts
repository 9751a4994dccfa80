// The built server binary (dist/main.js) as a child process, for the tests that run it.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

// The root `npm test` builds first (`npm run build`), so dist/main.js exists there.
export const MAIN = resolve(__dirname, '..', 'dist', 'main.js');

/** Throws a message naming the build step when dist/main.js is absent. */
export function assertBuilt(): void {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
}

// Ports below the ephemeral range: one from `listen(0)` could be handed to another process
// before the server binds it, and the test then talk to that process.
export { freePort } from '@logsvc/ring/testing';

export interface MainRun {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Everything the process wrote to stderr so far. */
  stderr: () => string;
}

/** Spawns `node dist/main.js <args>`, collecting stderr; stdout is discarded. */
export function runMain(args: readonly string[], env?: NodeJS.ProcessEnv): MainRun {
  const child = spawn(process.execPath, [MAIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(env ? { env } : {}),
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return { child, exited, stderr: () => stderr };
}

/**
 * Resolves once `${url}/ready` answers 200; throws with the process's stderr when it exits
 * first or is not ready within `timeoutMs`.
 */
export async function waitReady(
  url: string,
  run: MainRun,
  { timeoutMs = 100_000, pollMs = 100 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`server exited early: ${run.stderr()}`);
    if (Date.now() > deadline) throw new Error(`not ready in time: ${run.stderr()}`);
    try {
      if ((await fetch(`${url}/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((res) => setTimeout(res, pollMs));
  }
}
