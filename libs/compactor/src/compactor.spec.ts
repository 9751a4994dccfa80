import { describe, expect, it } from 'vitest';
import type { CompactorOptions } from './compactor';
import { DAY_MS, putLines, readLines, compactorTestEnv, testCompactor } from './testing/fixture';

const T = 'team-a';
const DAY = 19_800; // 2024-03-19
const dayStart = DAY * DAY_MS;

describe('Compactor', () => {
  const t = compactorTestEnv(dayStart + 2 * DAY_MS);

  const compactor = (over: Partial<CompactorOptions> = {}) =>
    testCompactor(t.env, () => t.now, over);

  async function indexFiles(table = `index_${DAY}`): Promise<string[]> {
    return (await t.env.client.list(`${T}/index/${table}/`)).objects.map((o) => o.key);
  }

  it('merges a table of several files into one; answers are unchanged', async () => {
    for (let i = 0; i < 4; i++) {
      await putLines(t.env.store(`ing-${i}`), T, { app: 'a' }, dayStart + i * 1000, [`l${i}`]);
    }
    expect(await indexFiles()).toHaveLength(4);
    const { compactor: c, store } = compactor();
    const before = await readLines(store, T, 'a');
    const summary = await c.run();
    expect(summary.filesMerged).toBe(4);
    const files = await indexFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toContain('/compactor-');
    expect(await readLines(t.env.store('reader'), T, 'a')).toEqual(before);
  });

  it('a query while the merged file and the inputs coexist gives the same answer', async () => {
    for (let i = 0; i < 3; i++) {
      await putLines(t.env.store(`ing-${i}`), T, { app: 'a' }, dayStart + i * 1000, [
        `l${i}`,
        `m${i}`,
      ]);
    }
    const reader = t.env.store('reader');
    const before = await readLines(reader, T, 'a');
    let during: string[] = [];
    const { compactor: c } = compactor({
      afterMergedWrite: async () => {
        during = await readLines(reader, T, 'a');
      },
    });
    await c.run();
    expect(during).toEqual(before);
    expect(await readLines(reader, T, 'a')).toEqual(before);
  });

  it('a crash between writing the merged file and deleting inputs loses and duplicates nothing', async () => {
    for (let i = 0; i < 3; i++) {
      await putLines(t.env.store(`ing-${i}`), T, { app: 'a' }, dayStart + i * 1000, [`l${i}`]);
    }
    const before = await readLines(t.env.store('r'), T, 'a');
    const crashing = compactor({
      afterMergedWrite: () => Promise.reject(new Error('crash')),
    }).compactor;
    await expect(crashing.run()).rejects.toThrow('crash');
    expect(await indexFiles()).toHaveLength(4);
    expect(await readLines(t.env.store('r2'), T, 'a')).toEqual(before);
    await compactor().compactor.run();
    expect(await indexFiles()).toHaveLength(1);
    expect(await readLines(t.env.store('r3'), T, 'a')).toEqual(before);
  });

  it('retention removes expired chunks and their index after the delete delay', async () => {
    await putLines(t.env.store('i'), T, { app: 'a' }, dayStart, ['old']);
    await putLines(t.env.store('i'), T, { app: 'a' }, dayStart + DAY_MS + 1000, ['new']);
    const { compactor: c } = compactor({
      limits: () => ({
        retention_period: DAY_MS,
        retention_stream: [],
        deletion_mode: 'filter-and-delete',
      }),
      retentionDeleteDelayMs: 1000,
    });
    const s1 = await c.run();
    expect(s1.chunksExpired).toBe(1);
    expect(s1.chunksSwept).toBe(0);
    expect(await indexFiles()).toHaveLength(0);
    expect(await readLines(t.env.store('r'), T, 'a')).toEqual(['new']);
    t.now += 2000;
    expect((await c.run()).chunksSwept).toBe(1);
    const chunks = (await t.env.client.list(`${T}/chunks/`)).objects;
    expect(chunks).toHaveLength(1);
  });

  it('processes a delete request with a line filter: rewrites chunks, marks it processed', async () => {
    await putLines(t.env.store('i'), T, { app: 'a' }, dayStart, ['keep 1', 'secret 2', 'keep 3']);
    await putLines(t.env.store('i'), T, { app: 'b' }, dayStart, ['secret b']);
    const { compactor: c, api } = compactor();
    await api.create(T, {
      query: '{app="a"} |= "secret"',
      start: String(Math.floor(dayStart / 1000)),
      end: String(Math.floor((dayStart + 10_000) / 1000)),
    });
    // Within the cancel period: not processed yet.
    expect((await c.run()).requestsProcessed).toBe(0);
    t.now += 61_000;
    const s = await c.run();
    expect(s.requestsProcessed).toBe(1);
    expect(s.chunksRewritten).toBe(1);
    expect(s.linesDeleted).toBe(1);
    expect(await readLines(t.env.store('r'), T, 'a')).toEqual(['keep 1', 'keep 3']);
    expect(await readLines(t.env.store('r'), T, 'b')).toEqual(['secret b']);
    const [listed] = await api.list(T);
    expect(listed.status).toBe('processed');
    const [progress] = await api.progress(T);
    expect(progress).toMatchObject({
      tables_done: 1,
      tables_total: 1,
      chunks_total: 1,
      chunks_processed: 1,
      chunks_rewritten: 1,
      lines_deleted: 1,
    });
  });

  it('counts the chunks a request touches from the index when it picks the request up', async () => {
    await putLines(t.env.store('i'), T, { app: 'a' }, dayStart, ['secret 1']);
    await putLines(t.env.store('j'), T, { app: 'a' }, dayStart + 5000, ['secret 2']);
    await putLines(t.env.store('i'), T, { app: 'a' }, dayStart + DAY_MS, ['secret 3']);
    await putLines(t.env.store('i'), T, { app: 'b' }, dayStart, ['secret b']);
    // Outside the request's range: not counted.
    await putLines(t.env.store('i'), T, { app: 'a' }, dayStart + DAY_MS + 3_600_000, ['late']);
    const { api } = compactor();
    await api.create(T, {
      query: '{app="a"} |= "secret"',
      start: String(Math.floor(dayStart / 1000)),
      end: String(Math.floor((dayStart + DAY_MS + 60_000) / 1000)),
    });
    expect((await api.progress(T))[0].chunks_total).toBeNull();
    t.now += 61_000;
    // Stopped after the first table's merged file: the total is known, no chunk done yet.
    await expect(
      compactor({ afterMergedWrite: () => Promise.reject(new Error('crash')) }).compactor.run(),
    ).rejects.toThrow('crash');
    expect((await api.progress(T))[0]).toMatchObject({
      tables_total: 2,
      tables_done: 0,
      chunks_total: 3,
      chunks_processed: 0,
    });
    await compactor().compactor.run();
    expect((await api.progress(T))[0]).toMatchObject({
      status: 'processed',
      tables_done: 2,
      chunks_total: 3,
      chunks_processed: 3,
      lines_deleted: 3,
    });
  });

  it('resumes a delete request after a crash mid-processing', async () => {
    await putLines(t.env.store('i'), T, { app: 'a' }, dayStart, ['x 1', 'secret 2']);
    await putLines(t.env.store('j'), T, { app: 'a' }, dayStart + 5000, ['secret 3', 'y 4']);
    const { api } = compactor();
    await api.create(T, {
      query: '{app="a"} |~ "secret"',
      start: String(Math.floor(dayStart / 1000)),
      end: String(Math.floor((dayStart + 20_000) / 1000)),
    });
    t.now += 61_000;
    await expect(
      compactor({ afterMergedWrite: () => Promise.reject(new Error('crash')) }).compactor.run(),
    ).rejects.toThrow('crash');
    expect((await api.list(T))[0].status).toBe('received');
    await compactor().compactor.run();
    expect((await api.list(T))[0].status).toBe('processed');
    expect(await readLines(t.env.store('r'), T, 'a')).toEqual(['x 1', 'y 4']);
  });

  it('cancel: within the period; after it only with force; never once processed', async () => {
    const { api, compactor: c } = compactor();
    const start = String(Math.floor(dayStart / 1000));
    const r1 = await api.create(T, { query: '{app="a"}', start });
    await api.cancel(T, r1.requestId, false);
    expect(await api.list(T)).toEqual([]);
    const r2 = await api.create(T, { query: '{app="a"}', start });
    t.now += 61_000;
    await expect(api.cancel(T, r2.requestId, false)).rejects.toThrow(
      'Unable to cancel partially completed delete request. To force, use the ?force query parameter',
    );
    await api.cancel(T, r2.requestId, true);
    expect(await api.list(T)).toEqual([]);
    const r3 = await api.create(T, { query: '{app="a"}', start });
    t.now += 61_000;
    await c.run();
    await expect(api.cancel(T, r3.requestId, true)).rejects.toThrow(
      'deletion of request which is in process or already processed is not allowed',
    );
    await expect(api.cancel(T, 'deadbeef', false)).rejects.toThrow(
      'could not find delete request with given id',
    );
  });

  it('cancels only the request named exactly (Loki 3.4 matches an id prefix, even an empty one)', async () => {
    const { api } = compactor();
    const start = String(Math.floor(dayStart / 1000));
    const r = await api.create(T, { query: '{app="a"}', start });
    for (const id of ['', r.requestId.slice(0, 1), r.requestId.slice(0, -1)]) {
      await expect(api.cancel(T, id, true)).rejects.toThrow(
        'could not find delete request with given id',
      );
    }
    expect((await api.list(T)).map((l) => l.request_id)).toEqual([r.requestId]);
  });
});
