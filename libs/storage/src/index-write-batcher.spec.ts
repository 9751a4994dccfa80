import { describe, expect, it } from 'vitest';
import type { SeriesChunkRefs } from './index-model';
import { IndexWriteBatcher } from './index-write-batcher';
import type { IndexTableRef } from './schema-config';

const table = { name: 'index_1', objectStore: 'filesystem' } as IndexTableRef;
const series = (n: number) => [{ n }] as unknown as SeriesChunkRefs[];

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('IndexWriteBatcher', () => {
  it('gathers puts that arrive while a file is being written into the next file', async () => {
    const writes: { files: readonly SeriesChunkRefs[][]; done: ReturnType<typeof deferred> }[] = [];
    const sut = new IndexWriteBatcher((_t, _table, files) => {
      const done = deferred();
      writes.push({ files, done });
      return done.promise;
    });
    const first = sut.add('t', table, series(1));
    await Promise.resolve();
    await Promise.resolve();
    expect(writes).toHaveLength(1);
    const later = [2, 3, 4].map((n) => sut.add('t', table, series(n)));
    writes[0].done.resolve();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(2);
    expect(writes[1].files.map((f) => (f[0] as unknown as { n: number }).n)).toEqual([2, 3, 4]);
    writes[1].done.resolve();
    await Promise.all(later);
  });

  it('fails every put of a failed file, and later puts still get written', async () => {
    let fail = true;
    const written: number[] = [];
    const sut = new IndexWriteBatcher(async (_t, _table, files) => {
      if (fail) throw new Error('disk full');
      written.push(files.length);
    });
    const a = sut.add('t', table, series(1));
    const b = sut.add('t', table, series(2));
    await expect(a).rejects.toThrow('disk full');
    await expect(b).rejects.toThrow('disk full');
    fail = false;
    await sut.add('t', table, series(3));
    expect(written).toEqual([1]);
  });

  it('keeps tenants and tables apart', async () => {
    const keys: string[] = [];
    const sut = new IndexWriteBatcher(async (tenant, t) => {
      keys.push(`${tenant}/${t.name}`);
    });
    await Promise.all([
      sut.add('a', table, series(1)),
      sut.add('b', table, series(2)),
      sut.add('a', { ...table, name: 'index_2' }, series(3)),
    ]);
    expect(keys.sort()).toEqual(['a/index_1', 'a/index_2', 'b/index_1']);
  });
});
