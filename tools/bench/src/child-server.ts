import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
 * A server the bench runs as a child process on 127.0.0.1: keeps the tail of its stderr, its
 * peak RSS, and stops or kills it. Subclasses start it and own its directories.
 */
export abstract class ChildServer {
  private stderrText = '';
  private peakRss: number | undefined;
  protected readonly exitPromise: Promise<number | null>;

  protected constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stderr!.on('data', (d: Buffer) => {
      // Keep the tail only: a long run logs a lot.
      this.stderrText = (this.stderrText + d.toString('utf8')).slice(-20_000);
    });
    // 'close', not 'exit': it comes once stdio is drained, so stderr() then holds the last lines.
    this.exitPromise = new Promise((res) => child.once('close', (code) => res(code)));
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

  /** Resolves with the exit code once the process exits on its own or is stopped. */
  exited(): Promise<number | null> {
    return this.exitPromise;
  }

  /** SIGTERM (graceful) and wait; SIGKILL after `timeoutMs`. */
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

  /** Polls `path` until it answers 200; throws if the process exits or time runs out. */
  protected async waitReady(
    name: string,
    timeoutMs: number,
    pollMs: number,
    path = '/ready',
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`${name} exited early:\n${this.stderrText}`);
      try {
        if ((await fetch(`${this.url}${path}`)).status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        throw new Error(`${name} not ready after ${timeoutMs} ms:\n${this.stderrText}`);
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
}
