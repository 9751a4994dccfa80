import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@logsvc/ring/testing';
import { ChildServer } from '../child-server';
import { onCpus } from '../cpu-affinity';

export { procStatusBytes } from '../child-server';

/** The built single binary (`npm run build` makes it). */
export const SERVER_MAIN = resolve(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  'apps',
  'logsvc',
  'dist',
  'main.js',
);

/**
 * The node options `npm start` and the container image run the server with (package.json,
 * docker/logsvc.Dockerfile): a 64 MB young generation, so a push's objects that wait for the
 * WAL fsync are not copied by every scavenge, and a 256 MB old generation to start with, so
 * the chunk bytes an ingester takes in do not start a full collection every few hundred
 * milliseconds (docs/operations.md, docs/benchmarks.md).
 */
export const SERVER_NODE_OPTIONS: readonly string[] = [
  '--max-semi-space-size=64',
  '--initial-old-space-size=256',
];

export interface ServerProcessOptions {
  /** The server's `main.js` (default: this checkout's build, SERVER_MAIN). */
  readonly main?: string;
  /** Data directory (`-common.path-prefix`); a fresh temporary one when absent. */
  readonly dataDir?: string;
  /** Extra Loki-style flags, e.g. `-distributor.ingestion-rate-limit-mb=1000`. */
  readonly flags?: readonly string[];
  /** Extra `node` options, e.g. `--cpu-prof`. */
  readonly nodeOptions?: readonly string[];
  /** Port to listen on; a free one when absent. */
  readonly port?: number;
  /** How long to wait for /ready (default 30 s). */
  readonly readyTimeoutMs?: number;
  /** Wait for /ready to answer 200 before resolving (default true); false: only spawn. */
  readonly waitReady?: boolean;
  /** Runs the server under `taskset -c <cpus>` when set. */
  readonly cpus?: string | null;
  /** Environment variables set for this process only, over the test's own. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The real server binary as a child process on 127.0.0.1. Owns its temporary data directory
 * when it made one (removed by `dispose`).
 */
export class ServerProcess extends ChildServer {
  private constructor(
    child: ChildProcess,
    port: number,
    readonly dataDir: string,
    private readonly ownsDataDir: boolean,
  ) {
    super(child, port);
  }

  static async start(options: ServerProcessOptions = {}): Promise<ServerProcess> {
    const ownsDataDir = options.dataDir === undefined;
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'logsvc-proc-'));
    const port = options.port ?? (await freePort());
    const args = [
      ...SERVER_NODE_OPTIONS,
      ...(options.nodeOptions ?? []),
      options.main ?? SERVER_MAIN,
      '-server.http-listen-address=127.0.0.1',
      `-server.http-listen-port=${port}`,
      `-common.path-prefix=${dataDir}`,
      ...(options.flags ?? []),
    ];
    const [command, commandArgs] = onCpus(options.cpus ?? null, process.execPath, args);
    // taskset execs the command, so the child's pid is the server's.
    const child = spawn(command, commandArgs, {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
    });
    const proc = new ServerProcess(child, port, dataDir, ownsDataDir);
    if (options.waitReady === false) return proc;
    try {
      await proc.waitReady('server', options.readyTimeoutMs ?? 30_000, 100);
    } catch (err) {
      await proc.kill9();
      throw err;
    }
    return proc;
  }

  /** Stops the process if it still runs and removes a data directory it created. */
  async dispose(): Promise<void> {
    if (this.running) await this.kill9();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
