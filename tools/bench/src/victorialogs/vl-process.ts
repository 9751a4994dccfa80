import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchServer } from '../bench-server';
import { ChildServer } from '../child-server';
import { onCpus } from '../cpu-affinity';
import { freePort } from '@logsvc/ring/testing';

/** Where the reference VictoriaLogs binary is built on the project's machines. */
export const DEFAULT_VL_BINARY = join(homedir(), '.cache', 'vl-ref', 'victoria-logs');

/** The binary at `path` when it exists; otherwise undefined (the caller skips VictoriaLogs). */
export function findVictoriaLogsBinary(path: string): string | undefined {
  return existsSync(path) ? path : undefined;
}

/** The message a bench prints when it was asked to compare with VictoriaLogs and cannot. */
export function missingVictoriaLogsMessage(path: string): string {
  return (
    `note: no VictoriaLogs binary at ${path}; skipping the VictoriaLogs comparison ` +
    `(build it there or pass --victorialogs=PATH)\n`
  );
}

export interface VictoriaLogsProcessOptions {
  readonly binary: string;
  /** Runs it under `taskset -c <cpus>` when set (the same placement as logsvc's). */
  readonly cpus?: string | null;
  readonly readyTimeoutMs?: number;
}

/**
 * Loki's push API on VictoriaLogs (protobuf + snappy, labels become stream fields). Message
 * parsing is off, so a JSON line stays the whole `_msg` as Loki and logsvc keep it, and line
 * filters and `unpack_json` see the same text as LogQL's `|=` and `| json`.
 */
export const VL_LOKI_PUSH_PATH = '/insert/loki/api/v1/push?disable_message_parsing=1';

/**
 * VictoriaLogs single-node as a child process on 127.0.0.1 with its own temporary data
 * directory; the retention is long enough for any generated timestamp.
 */
export class VictoriaLogsProcess extends ChildServer implements BenchServer {
  private constructor(
    child: ChildProcess,
    port: number,
    readonly dir: string,
  ) {
    super(child, port);
  }

  static async start(options: VictoriaLogsProcessOptions): Promise<VictoriaLogsProcess> {
    const dir = mkdtempSync(join(tmpdir(), 'vl-bench-'));
    const port = await freePort();
    const [command, args] = onCpus(options.cpus ?? null, options.binary, [
      `-storageDataPath=${join(dir, 'data')}`,
      `-httpListenAddr=127.0.0.1:${port}`,
      '-retentionPeriod=100y',
      '-loggerLevel=WARN',
    ]);
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const proc = new VictoriaLogsProcess(child, port, dir);
    try {
      await proc.waitReady('victorialogs', options.readyTimeoutMs ?? 60_000, 200, '/health');
    } catch (err) {
      await proc.dispose();
      throw err;
    }
    return proc;
  }

  /**
   * Makes everything ingested searchable and moves it out of the in-memory parts to files
   * (`/internal/force_flush`): VictoriaLogs' nearest equivalent of a flush.
   */
  async flush(): Promise<void> {
    const res = await fetch(`${this.url}/internal/force_flush`);
    if (res.status !== 200)
      throw new Error(
        `victorialogs force_flush: ${res.status} ${(await res.text()).slice(0, 300)}`,
      );
  }

  async dispose(): Promise<void> {
    await this.kill9();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
