import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Another live process holds the WAL directory; two writers would corrupt each other's log. */
export class WalLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holderPid: number,
  ) {
    super(
      `WAL directory ${dir} is in use by process ${holderPid}: ` +
        'each ingester needs its own -ingester.wal-dir (or common.path_prefix)',
    );
    this.name = 'WalLockedError';
  }
}

const LOCK_FILE = 'LOCK';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive claim on a WAL directory: a `LOCK` file holding the owner's PID, created with
 * O_EXCL. A lock left by a process that no longer runs (kill -9, a crash) is taken over, and
 * so is one holding this process's own PID (a restarted container is often PID 1 again).
 */
export class DirLock {
  private constructor(private readonly path: string) {}

  static async acquire(dir: string): Promise<DirLock> {
    const path = join(dir, LOCK_FILE);
    for (;;) {
      try {
        const fh = await open(path, 'wx');
        try {
          await fh.writeFile(`${process.pid}\n`);
          await fh.sync();
        } finally {
          await fh.close();
        }
        return new DirLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new WalLockedError(dir, holder);
      }
      await rm(path, { force: true });
    }
  }

  async release(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
