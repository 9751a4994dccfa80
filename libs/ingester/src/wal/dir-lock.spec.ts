import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newCounters } from '../metrics';
import { SILENT_LOGGER } from '../logger';
import { DirLock, WalLockedError } from './dir-lock';
import { Wal } from './wal';

const freshDir = () => mkdtempSync(join(tmpdir(), 'wal-lock-'));
const FAST = { heartbeatMs: 40, staleMs: 400 };
const tokenOf = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'LOCK'), 'utf8')) as { token: string }).token;

/** A child process that takes the lock through the library, says `locked`, then idles. */
function lockInChild(dir: string) {
  const ROOT = resolve(__dirname, '../../../..');
  const script = join(dir, '..', `${dir.split('/').pop()}-child.ts`);
  writeFileSync(
    script,
    `import { DirLock } from '${resolve(__dirname, 'dir-lock.ts')}';
DirLock.acquire(process.argv[2], { heartbeatMs: ${FAST.heartbeatMs}, staleMs: ${FAST.staleMs} })
  .then(() => { process.stdout.write('locked\\n'); setInterval(() => {}, 1000); });
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script, dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const locked = new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && ok());
    child.on('exit', (code) => fail(new Error(`child exited with ${code}`)));
  });
  return { child, locked };
}

describe('WAL directory lock', () => {
  it('refuses a second locker while the first holds the directory, even in one process', async () => {
    const dir = freshDir();
    const first = await DirLock.acquire(dir, FAST);
    const started = performance.now();
    const err = await DirLock.acquire(dir, FAST).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WalLockedError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^WAL directory ${dir} is locked by a running ingester \\(pid ${process.pid} on .+\\): ` +
          'each ingester needs its own -ingester.wal-dir \\(or common.path_prefix\\)$',
      ),
    );
    // Refused on the holder's next heartbeat, not after the stale period.
    expect(performance.now() - started).toBeLessThan(FAST.staleMs);
    await first.release();
    const second = await DirLock.acquire(dir, FAST);
    await second.release();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });

  it('never takes over a live holder, however long the contender keeps trying', async () => {
    const dir = freshDir();
    const holder = await DirLock.acquire(dir, FAST);
    const token = tokenOf(dir);
    for (let i = 0; i < 3; i++) {
      await expect(DirLock.acquire(dir, FAST)).rejects.toBeInstanceOf(WalLockedError);
    }
    await new Promise((r) => setTimeout(r, FAST.staleMs * 1.5));
    await expect(DirLock.acquire(dir, FAST)).rejects.toBeInstanceOf(WalLockedError);
    expect(tokenOf(dir)).toBe(token);
    await holder.release();
  });

  it('takes over the lock of a holder killed with kill -9 after the stale period', async () => {
    const dir = freshDir();
    const { child, locked } = lockInChild(dir);
    await locked;
    await expect(DirLock.acquire(dir, FAST)).rejects.toBeInstanceOf(WalLockedError);
    const childToken = tokenOf(dir);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    const started = performance.now();
    const lock = await DirLock.acquire(dir, FAST);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(2 * FAST.heartbeatMs - 5);
    expect(tokenOf(dir)).not.toBe(childToken);
    await lock.release();
  }, 30_000);

  it('takes over a lock file nobody refreshes (left by a process that died) and garbage', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'LOCK'), JSON.stringify({ token: 'x', pid: 1, host: 'h' }));
    await (await DirLock.acquire(dir, FAST)).release();
    writeFileSync(join(dir, 'LOCK'), 'garbage');
    await (await DirLock.acquire(dir, FAST)).release();
  });

  it('tells the holder when its lock file was taken from it, and the WAL refuses appends', async () => {
    const dir = freshDir();
    const counters = newCounters();
    const wal = await Wal.open({ dir, logger: SILENT_LOGGER, counters, lockHeartbeatMs: 20 });
    await wal.replay({ restoreStream: () => {}, replayPush: () => {} });
    writeFileSync(join(dir, 'LOCK'), JSON.stringify({ token: 'other', pid: 1, host: 'h' }));
    await new Promise((r) => setTimeout(r, 100));
    await expect(wal.append('t', [])).rejects.toThrow(
      'WAL directory lock lost: the lock file now belongs to another ingester',
    );
    await wal.close();
    // Release leaves the other ingester's lock file alone.
    expect(tokenOf(dir)).toBe('other');
  });

  it('is held from open to close', async () => {
    const dir = freshDir();
    const counters = newCounters();
    const opts = { dir, logger: SILENT_LOGGER, counters, lockHeartbeatMs: 40, lockStaleMs: 400 };
    const wal = await Wal.open(opts);
    expect(tokenOf(dir)).toMatch(/^[0-9a-f]{32}$/);
    await expect(Wal.open(opts)).rejects.toBeInstanceOf(WalLockedError);
    await wal.close();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });
});
