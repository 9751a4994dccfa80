import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onCpus } from '../cpu-affinity';

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
  /** Runs the server under `taskset -c <cpus>` when set. */
  readonly cpus?: string | null;
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

/** Reads a `kB` field such as VmHWM (peak RSS) or VmRSS of a live process, in bytes. */
export function procStatusBytes(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined; // not Linux, or the process is gone
  }
}

/**
 * The real server binary as a child process on 127.0.0.1. Owns its temporary data directory
 * when it made one (removed by `dispose`).
 */
export class ServerProcess {
  private stderrText = '';
  private peakRss: number | undefined;
  private readonly exitPromise: Promise<number | null>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
    private readonly ownsDataDir: boolean,
  ) {
    child.stderr!.on('data', (d: Buffer) => {
      // Keep the tail only: a long run logs a lot.
      this.stderrText = (this.stderrText + d.toString('utf8')).slice(-20_000);
    });
    this.exitPromise = new Promise((res) => child.once('exit', (code) => res(code)));
  }

  static async start(options: ServerProcessOptions = {}): Promise<ServerProcess> {
    const ownsDataDir = options.dataDir === undefined;
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'logsvc-proc-'));
    const port = options.port ?? (await freePort());
    const args = [
      ...(options.nodeOptions ?? []),
      options.main ?? SERVER_MAIN,
      '-server.http-listen-address=127.0.0.1',
      `-server.http-listen-port=${port}`,
      `-common.path-prefix=${dataDir}`,
      ...(options.flags ?? []),
    ];
    const [command, commandArgs] = onCpus(options.cpus ?? null, process.execPath, args);
    // taskset execs the command, so the child's pid is the server's.
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    const proc = new ServerProcess(child, port, dataDir, ownsDataDir);
    await proc.waitReady(options.readyTimeoutMs ?? 30_000);
    return proc;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  stderr(): string {
    return this.stderrText;
  }

  /** Peak RSS (VmHWM) seen so far; read it before the process exits. */
  samplePeakRss(): number | undefined {
    const now = procStatusBytes(this.pid, 'VmHWM');
    if (now !== undefined) this.peakRss = Math.max(this.peakRss ?? 0, now);
    return this.peakRss;
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`server exited early:\n${this.stderrText}`);
      try {
        if ((await fetch(`${this.url}/ready`)).status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        this.child.kill('SIGKILL');
        throw new Error(`server not ready after ${timeoutMs} ms:\n${this.stderrText}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** SIGTERM (graceful: the server flushes and exits) and wait; SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 30_000): Promise<number | null> {
    if (!this.running) return this.exitPromise;
    this.samplePeakRss();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exitPromise;
    clearTimeout(timer);
    return code;
  }

  /** kill -9: no chance to flush or close anything. */
  async kill9(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exitPromise;
  }

  /** Stops the process if it still runs and removes a data directory it created. */
  async dispose(): Promise<void> {
    if (this.running) await this.kill9();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
