import { promises as fs } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FilesystemObjectClient } from './filesystem-object-client';

/** Dates a directory's mtime an hour back, as a table that nothing wrote to for a while. */
async function settle(dir: string): Promise<void> {
  const hourAgo = new Date(Date.now() - 3_600_000);
  await utimes(dir, hourAgo, hourAgo);
}

const keys = async (client: FilesystemObjectClient, prefix: string): Promise<string[]> =>
  (await client.list(prefix)).objects.map((o) => o.key);

describe('FilesystemObjectClient directory listings', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'logsvc-listings-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(root, { recursive: true, force: true });
  });

  it('lists an unchanged table again from one stat of its directory, not a read of it', async () => {
    const client = new FilesystemObjectClient(root);
    await client.put('t/index/tbl/a.idx', Buffer.from('a'));
    await client.put('t/index/tbl/b.idx', Buffer.from('bb'));
    await settle(path.join(root, 't', 'index', 'tbl'));
    const reads = vi.spyOn(fs, 'readdir');
    const first = await client.list('t/index/tbl/');
    const second = await client.list('t/index/tbl/');
    expect(second).toEqual(first);
    expect(first.objects.map((o) => [o.key, o.size])).toEqual([
      ['t/index/tbl/a.idx', 1],
      ['t/index/tbl/b.idx', 2],
    ]);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('sees a put and a delete at once, by this client or another on the same directory', async () => {
    const writer = new FilesystemObjectClient(root);
    const reader = new FilesystemObjectClient(root);
    await writer.put('t/index/tbl/a.idx', Buffer.from('a'));
    await settle(path.join(root, 't', 'index', 'tbl'));
    expect(await keys(reader, 't/index/tbl/')).toEqual(['t/index/tbl/a.idx']);

    await writer.put('t/index/tbl/b.idx', Buffer.from('b'));
    expect(await keys(reader, 't/index/tbl/')).toEqual(['t/index/tbl/a.idx', 't/index/tbl/b.idx']);
    await settle(path.join(root, 't', 'index', 'tbl'));
    expect(await keys(reader, 't/index/tbl/')).toHaveLength(2);

    await reader.delete('t/index/tbl/a.idx');
    expect(await keys(writer, 't/index/tbl/')).toEqual(['t/index/tbl/b.idx']);
    expect(await keys(reader, 't/index/tbl/')).toEqual(['t/index/tbl/b.idx']);
  });

  it('reads a directory changed in the last seconds every time, so no change in one clock tick hides', async () => {
    const client = new FilesystemObjectClient(root);
    await client.put('t/x/a', Buffer.from('a'));
    const reads = vi.spyOn(fs, 'readdir');
    expect(await keys(client, 't/x/')).toEqual(['t/x/a']);
    // Written beside the store's own writes, and the directory's mtime put back: what a second
    // change in the same coarse clock tick looks like to a stat.
    const dir = path.join(root, 't', 'x');
    const { mtime } = await fs.stat(dir);
    await writeFile(path.join(dir, 'b'), 'b');
    await utimes(dir, mtime, mtime);
    expect(await keys(client, 't/x/')).toEqual(['t/x/a', 't/x/b']);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('forgets a directory that was removed, and lists it empty', async () => {
    const client = new FilesystemObjectClient(root);
    await client.put('t/gone/a', Buffer.from('a'));
    await settle(path.join(root, 't', 'gone'));
    expect(await keys(client, 't/gone/')).toEqual(['t/gone/a']);
    await client.delete('t/gone/a');
    expect(await keys(client, 't/gone/')).toEqual([]);
    expect((await client.list('t/', { delimiter: '/' })).commonPrefixes).toEqual([]);
  });
});
