import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchServer } from '../bench-server';
import { onCpus } from '../cpu-affinity';
import { ChildServer } from '../child-server';
import { freePort } from '@logsvc/ring/testing';
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

/**
 * For a bench that cannot run without Loki: the binary at `path`, or undefined after printing
 * why and setting exit code 2.
 */
export function requireLokiBinary(path: string): string | undefined {
  const binary = findLokiBinary(path);
  if (binary === undefined) {
    process.stderr.write(missingLokiMessage(path));
    process.exitCode = 2;
  }
  return binary;
}

export interface LokiProcessOptions {
  readonly binary: string;
  readonly wal: boolean;
  /** Runs Loki under `taskset -c <cpus>` when set (the same placement as logsvc's). */
  readonly cpus?: string | null;
  /** How long to wait for /ready (default 60 s; Loki needs ≈ 10 s to join its ring). */
  readonly readyTimeoutMs?: number;
  /** Further Loki flags (e.g. a querier option the generated config leaves at its default). */
  readonly flags?: readonly string[];
  /**
   * A rule store that takes writes (the rules API): Loki's object-store client on the
   * filesystem (`-use-thanos-objstore`), its legacy `local` store being read-only.
   */
  readonly writableRules?: boolean;
}

/** Loki as a child process on 127.0.0.1 with a generated config and its own temporary dir. */
export class LokiProcess extends ChildServer implements BenchServer {
  private constructor(
    child: ChildProcess,
    port: number,
    readonly dir: string,
  ) {
    super(child, port);
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
      ...(options.writableRules === true
        ? [
            '-use-thanos-objstore=true',
            '-ruler-storage.backend=filesystem',
            `-ruler-storage.filesystem.dir=${join(dir, 'rules')}`,
            `-object-store.filesystem.dir=${join(dir, 'data', 'objects')}`,
          ]
        : []),
      ...(options.flags ?? []),
    ]);
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const proc = new LokiProcess(child, httpPort, dir);
    try {
      await proc.waitReady('loki', options.readyTimeoutMs ?? 60_000, 200);
    } catch (err) {
      await proc.dispose();
      throw err;
    }
    return proc;
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

  /** As ChildServer's, with Loki's longer default (it leaves its ring before exiting). */
  override stop(timeoutMs = 60_000): Promise<number | null> {
    return super.stop(timeoutMs);
  }

  async dispose(): Promise<void> {
    await this.kill9();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
