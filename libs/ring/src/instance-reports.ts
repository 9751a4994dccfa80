// Every process's own status report in one key of the rings' KV store (for the admin UI's
// cluster overview): each process writes its report on a change and periodically, watches the
// key for the others', and removes its report when it leaves.
import { CoalescedRun } from './coalesced-run';
import type { Kv } from './kv';

/** What a report carries at least: who wrote it and when (ISO time). */
export interface InstanceReport {
  readonly id: string;
  readonly updated_at: string;
}

export interface InstanceReportsOptions<R extends InstanceReport> {
  readonly kv: Kv;
  /** The key (below the store's prefix) holding every process's report. */
  readonly key: string;
  /** This process's report, now. */
  readonly self: () => R;
  /** Called when a peer's report changed. */
  readonly onPeersChange?: () => void;
  /** Where failed writes go (debug: the store may be down for a while). */
  readonly onError?: (err: unknown, what: string) => void;
  /** How often a process reports even when nothing changed (default 5 s). */
  readonly periodMs?: number;
  /** Reports older than this are dropped from the key (default 10 min). */
  readonly forgetAfterMs?: number;
  /** Coalesces bursts of changes into one write (default 100 ms). */
  readonly changeDelayMs?: number;
  /** How long leaving may wait for the store (default 2 s): shutdown must not hang on it. */
  readonly leaveTimeoutMs?: number;
  readonly now?: () => number;
}

/** `work`, or undefined once `ms` have passed (the work goes on in the background). */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function parseReports<R>(value: Buffer | null): Record<string, R> {
  if (value === null) return {};
  try {
    const parsed = JSON.parse(value.toString('utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, R>) : {};
  } catch {
    return {};
  }
}

/** The reports of every process in one KV key, this process's kept current. */
export class InstanceReports<R extends InstanceReport> {
  private peers: Record<string, R> = {};
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;
  private closed = false;
  // One write at a time (with the store down, writes must not pile up every period), and a
  // change that comes during a write is written by one more pass rather than dropped.
  private readonly publisher = new CoalescedRun(() => this.publish());
  private readonly now: () => number;

  constructor(private readonly options: InstanceReportsOptions<R>) {
    this.now = options.now ?? Date.now;
  }

  /** Watches the key and starts the periodic report. */
  start(): void {
    const { kv, key } = this.options;
    this.unwatch = kv.watch(key, (value) => {
      this.peers = parseReports<R>(value);
      this.options.onPeersChange?.();
    });
    this.timer = setInterval(() => void this.publisher.request(), this.options.periodMs ?? 5_000);
    this.timer.unref();
  }

  /** This process's state changed: report it soon (bursts coalesced). */
  changed(): void {
    if (this.closed || this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.publisher.request();
    }, this.options.changeDelayMs ?? 100);
    this.pending.unref();
  }

  /** The reports of the other processes, as last read. */
  others(selfId: string): R[] {
    return Object.values(this.peers).filter((r) => r.id !== selfId);
  }

  /** Stops reporting, removes this process's report and closes the store (each bounded). */
  async leave(selfId: string): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.pending);
    this.unwatch?.();
    const { kv, key } = this.options;
    const ms = this.options.leaveTimeoutMs ?? 2_000;
    // A write still under way would put this report back after the leave removed it.
    await within(this.publisher.idle(), ms);
    const leave = kv
      .cas(key, (current) => {
        const reports = parseReports<R>(current);
        if (!(selfId in reports)) return null;
        delete reports[selfId];
        return Buffer.from(JSON.stringify(reports));
      })
      .catch((err: unknown) => this.options.onError?.(err, 'could not remove this instance'));
    await within(leave, ms);
    await within(
      kv.close().catch(() => {}),
      ms,
    );
  }

  private async publish(): Promise<void> {
    if (this.closed) return;
    try {
      const report = this.options.self();
      const now = this.now();
      const forgetAfter = this.options.forgetAfterMs ?? 10 * 60_000;
      await this.options.kv.cas(this.options.key, (current) => {
        const reports = parseReports<R>(current);
        for (const [id, r] of Object.entries(reports)) {
          if (now - Date.parse(r.updated_at) > forgetAfter) delete reports[id];
        }
        reports[report.id] = report;
        return Buffer.from(JSON.stringify(reports));
      });
    } catch (err) {
      this.options.onError?.(err, 'could not report this instance');
    }
  }
}
