import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { open, readFile, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Another live ingester holds the WAL directory; two writers would corrupt each other's log. */
export class WalLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: string,
  ) {
    super(
      `WAL directory ${dir} is locked by a running ingester (${holder}): ` +
        'each ingester needs its own -ingester.wal-dir (or common.path_prefix)',
    );
    this.name = 'WalLockedError';
  }
}

export interface DirLockOptions {
  /** How often the holder refreshes the lock file's mtime. */
  readonly heartbeatMs?: number;
  /** A lock whose mtime has not moved for this long is taken over. */
  readonly staleMs?: number;
  /** Called once if the holder finds the lock file gone or owned by someone else. */
  readonly onLost?: (reason: string) => void;
}

export const DEFAULT_LOCK_HEARTBEAT_MS = 1_000;
export const DEFAULT_LOCK_STALE_MS = 10_000;

const LOCK_FILE = 'LOCK';
/** Held (briefly) by the one contender allowed to remove a stale `LOCK`. */
const TAKEOVER_FILE = 'LOCK.takeover';

interface Observation {
  readonly content: string;
  readonly mtimeMs: number;
}

async function observe(path: string): Promise<Observation | null> {
  try {
    const [content, st] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { content, mtimeMs: st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function sameObservation(a: Observation, b: Observation | null): boolean {
  return b !== null && a.content === b.content && a.mtimeMs === b.mtimeMs;
}

/** `pid 12 on host-a` from a lock file's content, for messages. */
function describeHolder(content: string): string {
  try {
    const parsed = JSON.parse(content) as { pid?: unknown; host?: unknown };
    return `pid ${String(parsed.pid)} on ${String(parsed.host)}`;
  } catch {
    return 'unknown holder';
  }
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  let fh;
  try {
    fh = await open(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await fh.writeFile(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return true;
}

/**
 * An exclusive claim on a WAL directory that works without flock and across hosts and PID
 * namespaces (two containers that are both PID 1 on one shared volume): a `LOCK` file created
 * with O_EXCL holding a random instance token, whose mtime the holder refreshes every
 * heartbeat. A contender that finds the file watches it: if the mtime or content moves, the
 * holder is alive and the contender gives up; a lock that stays still for `staleMs` belongs to
 * a process that died (kill -9, a lost host) and is taken over. Only the contender that
 * creates `LOCK.takeover` may remove a stale lock, so two contenders cannot both take it over.
 * The holder also checks on each heartbeat that the file still holds its token and reports
 * the loss through `onLost` otherwise.
 */
export class DirLock {
  private timer: NodeJS.Timeout | null = null;
  private beating = false;
  private lost = false;

  private constructor(
    private readonly path: string,
    private readonly content: string,
    private readonly onLost: ((reason: string) => void) | undefined,
  ) {}

  /**
   * Takes the lock on `dir`, waiting up to `staleMs` while it decides whether a lock already
   * there is alive. Throws WalLockedError when it is.
   */
  static async acquire(dir: string, opts: DirLockOptions = {}): Promise<DirLock> {
    const heartbeatMs = opts.heartbeatMs ?? DEFAULT_LOCK_HEARTBEAT_MS;
    const staleMs = opts.staleMs ?? DEFAULT_LOCK_STALE_MS;
    const path = join(dir, LOCK_FILE);
    const content =
      JSON.stringify({
        token: randomBytes(16).toString('hex'),
        pid: process.pid,
        host: hostname(),
      }) + '\n';
    for (;;) {
      if (await createExclusive(path, content)) {
        const lock = new DirLock(path, content, opts.onLost);
        lock.startHeartbeat(heartbeatMs);
        return lock;
      }
      const seen = await observe(path);
      if (seen === null) continue;
      if (await DirLock.staysStill(path, seen, heartbeatMs, staleMs)) {
        await DirLock.takeOver(dir, path, seen, staleMs);
        continue;
      }
      const now = await observe(path);
      // Released while we watched: try to create it again.
      if (now === null) continue;
      throw new WalLockedError(dir, describeHolder(now.content));
    }
  }

  /**
   * Watches the lock file: false as soon as it changes (a live holder's heartbeat), true if it
   * stays as `seen` long enough to call its holder dead. The wait is `staleMs` less the age
   * the mtime already shows, but never under two heartbeats, so clock skew between hosts can
   * only lengthen it.
   */
  private static async staysStill(
    path: string,
    seen: Observation,
    heartbeatMs: number,
    staleMs: number,
  ): Promise<boolean> {
    const age = Date.now() - seen.mtimeMs;
    const wait = Math.min(staleMs, Math.max(2 * heartbeatMs, staleMs - age));
    const poll = Math.max(10, Math.floor(heartbeatMs / 4));
    const until = performance.now() + wait;
    while (performance.now() < until) {
      await sleep(poll);
      if (!sameObservation(seen, await observe(path))) return false;
    }
    return true;
  }

  private static async takeOver(
    dir: string,
    path: string,
    seen: Observation,
    staleMs: number,
  ): Promise<void> {
    const guard = join(dir, TAKEOVER_FILE);
    if (!(await createExclusive(guard, `${process.pid}\n`))) {
      // Someone else is taking over; a guard left by a contender that died mid-takeover
      // (it holds it for milliseconds) is cleared once it is stale itself.
      const g = await observe(guard);
      if (g && Date.now() - g.mtimeMs > staleMs) await rm(guard, { force: true });
      else await sleep(50);
      return;
    }
    try {
      if (sameObservation(seen, await observe(path))) await rm(path, { force: true });
    } finally {
      await rm(guard, { force: true });
    }
  }

  private startHeartbeat(heartbeatMs: number): void {
    this.timer = setInterval(() => void this.beat(), heartbeatMs);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    if (this.beating || this.lost || !this.timer) return;
    this.beating = true;
    try {
      const now = await observe(this.path);
      if (!this.timer) return;
      if (now?.content !== this.content) {
        this.markLost(
          now ? 'the lock file now belongs to another ingester' : 'the lock file is gone',
        );
        return;
      }
      const t = new Date();
      await utimes(this.path, t, t);
    } catch {
      // A transient I/O error: the next heartbeat tries again, well before the lock is stale.
    } finally {
      this.beating = false;
    }
  }

  private markLost(reason: string): void {
    this.lost = true;
    this.stopHeartbeat();
    this.onLost?.(reason);
  }

  private stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops the heartbeat and removes the lock file if it is still this holder's. */
  async release(): Promise<void> {
    this.stopHeartbeat();
    const now = await observe(this.path).catch(() => null);
    if (now?.content === this.content) await rm(this.path, { force: true });
  }
}
