import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FilesystemObjectClient } from './filesystem-object-client';
import { describeObjectClientContract } from './testing/object-client-contract';

describeObjectClientContract('filesystem', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'logsvc-fs-'));
  return {
    client: new FilesystemObjectClient(dir),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('FilesystemObjectClient on disk', () => {
  it('stores keys as nested files inside its directory only, and leaves no temp files', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'logsvc-fs-'));
    const dir = path.join(parent, 'store');
    const sut = new FilesystemObjectClient(dir);
    try {
      await sut.put('t1/chunks/ab/c', Buffer.from('payload'));
      expect((await stat(path.join(dir, 't1', 'chunks', 'ab', 'c'))).size).toBe(7);
      expect(await readdir(path.join(dir, 't1', 'chunks', 'ab'))).toEqual(['c']);
      await expect(sut.put('../outside', Buffer.from('x'))).rejects.toThrow(/invalid object key/);
      expect(await readdir(parent)).toEqual(['store']);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('removes directories emptied by a delete', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'logsvc-fs-'));
    const sut = new FilesystemObjectClient(dir);
    try {
      await sut.put('t/a/b/c', Buffer.from('x'));
      await sut.put('t/keep', Buffer.from('y'));
      await sut.delete('t/a/b/c');
      expect(await readdir(path.join(dir, 't'))).toEqual(['keep']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the conflict when a key would need an existing object as a directory', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'logsvc-fs-'));
    const sut = new FilesystemObjectClient(dir);
    try {
      await sut.put('t/file', Buffer.from('x'));
      await expect(sut.put('t/file/child', Buffer.from('y'))).rejects.toThrow(/conflicts/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
