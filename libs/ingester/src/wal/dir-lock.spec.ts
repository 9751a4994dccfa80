import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirLock, WalLockedError } from './dir-lock';
import { Wal } from './wal';

const freshDir = () => mkdtempSync(join(tmpdir(), 'wal-lock-'));

describe('WAL directory lock', () => {
  it('refuses a directory held by another live process', async () => {
    const dir = freshDir();
    // The test runner's parent process is alive for as long as this test runs.
    writeFileSync(join(dir, 'LOCK'), `${process.ppid}\n`);
    const err = await DirLock.acquire(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WalLockedError);
    expect((err as Error).message).toBe(
      `WAL directory ${dir} is in use by process ${process.ppid}: each ingester needs its own -ingester.wal-dir (or common.path_prefix)`,
    );
    await expect(Wal.open({ dir } as never)).rejects.toBeInstanceOf(WalLockedError);
  });

  it('takes over a lock left by a process that died (kill -9)', async () => {
    const dir = freshDir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(dir, 'LOCK'), `${gone}\n`);
    const lock = await DirLock.acquire(dir);
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });

  it('takes over its own PID and an unreadable lock', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'LOCK'), `${process.pid}\n`);
    await (await DirLock.acquire(dir)).release();
    writeFileSync(join(dir, 'LOCK'), 'garbage');
    await (await DirLock.acquire(dir)).release();
  });

  it('is held from open to close', async () => {
    const dir = freshDir();
    const wal = await Wal.open({ dir } as never);
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(`${process.pid}\n`);
    await wal.close();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });
});
