import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchServer } from '../bench-server';
import { onCpus } from '../cpu-affinity';
import { freePort, procStatusBytes } from '../ingest/server-process';
import { lokiConfigYaml } from './loki-config';

/** Where the reference Loki 3.4 binary is built on the project's machines. */
export const DEFAULT_LOKI_BINARY = join(homedir(), '.cache', 'loki-ref', 'loki');

/** The binary at `path` when it exists; otherwise undefined (the caller skips Loki). */
export function findLokiBinary(path: string): string | undefined {
  return existsSync(path) ? path : undefined;
}

/** The message a bench prints when it was asked to compare with Loki and cannot. */
export function missingLokiMessage(path: string): string {
  return (
    `note: no Loki binary at ${path}; skipping the Loki comparison ` +
    `(build Loki 3.4 there or pass --loki=PATH)\n`
  );
}

export interface LokiProcessOptions {
  readonly binary: string;
  readonly wal: boolean;
  /** Runs Loki under `taskset -c <cpus>` when set (the same placement as logsvc's). */
  readonly cpus?: string | null;
  /** How long to wait for /ready (default 60 s; Loki needs ≈ 10 s to join its ring). */
  readonly readyTimeoutMs?: number;
}

/** Loki as a child process on 127.0.0.1 with a generated config and its own temporary dir. */
export class LokiProcess implements BenchServer {
  private stderrText = '';
  private peakRss: number | undefined;
  private readonly exitPromise: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly dir: string,
  ) {
    child.stderr!.on('data', (d: Buffer) => {
      this.stderrText = (this.stderrText + d.toString('utf8')).slice(-20_000);
    });
    this.exitPromise = new Promise((res) => child.once('exit', (code) => res(code)));
  }

  static async start(options: LokiProcessOptions): Promise<LokiProcess> {
    const dir = mkdtempSync(join(tmpdir(), 'loki-bench-'));
    const httpPort = await freePort();
    let grpcPort = await freePort();
    while (grpcPort === httpPort) grpcPort = await freePort();
    const config = join(dir, 'loki.yaml');
    writeFileSync(
      config,
      lokiConfigYaml({ dataDir: join(dir, 'data'), httpPort, grpcPort, wal: options.wal }),
    );
    const [command, args] = onCpus(options.cpus ?? null, options.binary, [
      `-config.file=${config}`,
      '-target=all',
    ]);
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const proc = new LokiProcess(child, httpPort, dir);
    try {
      await proc.waitReady(options.readyTimeoutMs ?? 60_000);
    } catch (err) {
      await proc.dispose();
      throw err;
    }
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

  samplePeakRss(): number | undefined {
    const now = procStatusBytes(this.pid, 'VmHWM');
    if (now !== undefined) this.peakRss = Math.max(this.peakRss ?? 0, now);
    return this.peakRss;
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`loki exited early:\n${this.stderrText}`);
      try {
        if ((await fetch(`${this.url}/ready`)).status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`loki not ready after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * `POST /flush`, then waits until the ingesters hold no chunk (`loki_ingester_memory_chunks`
   * 0): Loki flushes asynchronously. Queries then read the flushed chunks from the store (with a
   * filesystem store the ingester reads them for the querier; `-querier.query-store-only` after
   * a restart would find no index, as TSDB ships it later).
   */
  async flushAndWait(timeoutMs = 300_000): Promise<void> {
    const res = await fetch(`${this.url}/flush`, { method: 'POST' });
    if (res.status !== 204 && res.status !== 200)
      throw new Error(`loki /flush: ${res.status} ${(await res.text()).slice(0, 300)}`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const metrics = await (await fetch(`${this.url}/metrics`)).text();
      const m = /^loki_ingester_memory_chunks (\S+)$/m.exec(metrics);
      if (m && Number(m[1]) === 0) return;
      if (Date.now() > deadline) throw new Error(`loki still holds ${m?.[1]} chunks after flush`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  async stop(timeoutMs = 60_000): Promise<number | null> {
    if (!this.running) return this.exitPromise;
    this.samplePeakRss();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exitPromise;
    clearTimeout(timer);
    return code;
  }

  async dispose(): Promise<void> {
    if (this.running) {
      this.child.kill('SIGKILL');
      await this.exitPromise;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
