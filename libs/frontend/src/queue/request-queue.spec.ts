import { LogsvcError } from '@logsvc/errors';
import { describe, expect, it } from 'vitest';
import { RequestQueue, TOO_MANY_OUTSTANDING_REQUESTS } from './request-queue';
import { EMPTY, TreeQueue } from './tree-queue';

function drain<T>(q: RequestQueue<T>): T[] {
  const out: T[] = [];
  for (let d = q.dequeue(); d !== undefined; d = q.dequeue()) out.push(d.item);
  return out;
}

function counts(items: string[]): Record<string, number> {
  const c: Record<string, number> = {};
  for (const i of items) {
    const key = i.slice(0, i.lastIndexOf('#'));
    c[key] = (c[key] ?? 0) + 1;
  }
  return c;
}

describe('RequestQueue', () => {
  it("serves the local queue and sub-queues of a level with equal preference (Loki's TestQueryFairnessAcrossSameLevel)", () => {
    const q = new RequestQueue<number>({ maxOutstandingPerTenant: 1024 });
    for (const i of [0, 1, 2]) q.enqueue('tenant1', [], i);
    for (const i of [10, 11, 12]) q.enqueue('tenant1', ['abc'], i);
    for (const i of [20, 21, 22]) q.enqueue('tenant1', ['xyz'], i);
    q.enqueue('tenant1', ['xyz', '123'], 200);
    q.enqueue('tenant1', ['xyz', '456'], 210);
    expect(drain(q)).toEqual([0, 10, 20, 1, 11, 200, 2, 12, 210, 21, 22]);
  });

  it('gives the local queue and each of N sub-queues a 1/N share while all are busy', () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 10_000 });
    // A scripted workload: a heavy actor, two light ones and the tenant's own (local) requests.
    for (let i = 0; i < 400; i++) q.enqueue('t', ['heavy'], `heavy#${i}`);
    for (let i = 0; i < 100; i++) q.enqueue('t', ['light1'], `light1#${i}`);
    for (let i = 0; i < 100; i++) q.enqueue('t', ['light2'], `light2#${i}`);
    for (let i = 0; i < 100; i++) q.enqueue('t', [], `local#${i}`);
    const out = drain(q);
    expect(out).toHaveLength(700);
    // While all four are busy every window of 4 dequeues takes one from each.
    for (let w = 0; w < 400; w += 4) {
      expect(counts(out.slice(w, w + 4))).toEqual({ heavy: 1, light1: 1, light2: 1, local: 1 });
    }
    // Then only the heavy actor is left.
    expect(counts(out.slice(400))).toEqual({ heavy: 300 });
  });

  it('splits a sub-queue share again between its own local queue and sub-queues', () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 10_000 });
    for (let i = 0; i < 100; i++) q.enqueue('t', ['a'], `a#${i}`);
    for (let i = 0; i < 100; i++) q.enqueue('t', ['b', 'x'], `b|x#${i}`);
    for (let i = 0; i < 100; i++) q.enqueue('t', ['b', 'y'], `b|y#${i}`);
    const out = drain(q);
    // a gets 1/2, b|x and b|y 1/4 each while everything is busy.
    expect(counts(out.slice(0, 100))).toEqual({ a: 50, 'b|x': 25, 'b|y': 25 });
    expect(counts(out.slice(0, 200))).toEqual({ a: 100, 'b|x': 50, 'b|y': 50 });
  });

  it('serves tenants round-robin with a 1/N share each', () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 10_000 });
    for (let i = 0; i < 300; i++) q.enqueue('A', [], `A#${i}`);
    for (let i = 0; i < 10; i++) q.enqueue('B', ['x', 'y'], `B#${i}`);
    for (let i = 0; i < 100; i++) q.enqueue('C', [], `C#${i}`);
    const out: string[] = [];
    const tenants: string[] = [];
    for (let d = q.dequeue(); d !== undefined; d = q.dequeue()) {
      out.push(d.item);
      tenants.push(d.tenant);
    }
    expect(tenants.slice(0, 6)).toEqual(['A', 'B', 'C', 'A', 'B', 'C']);
    expect(counts(out.slice(0, 30))).toEqual({ A: 10, B: 10, C: 10 });
    expect(counts(out.slice(30, 210))).toEqual({ A: 90, C: 90 });
    expect(counts(out.slice(210))).toEqual({ A: 200 });
  });

  it('keeps FIFO order within each queue', () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 100 });
    for (let i = 0; i < 20; i++) q.enqueue('t', i % 2 === 0 ? ['a'] : ['a', 'b'], `${i}`);
    const out = drain(q).map(Number);
    expect(out.filter((i) => i % 2 === 0)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(out.filter((i) => i % 2 === 1)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
  });

  it('refuses a request over max_outstanding_requests_per_tenant with 429 and Loki text', () => {
    const q = new RequestQueue<number>({ maxOutstandingPerTenant: 3 });
    q.enqueue('t', [], 1);
    q.enqueue('t', ['a'], 2);
    q.enqueue('t', ['b', 'c'], 3);
    let err: unknown;
    try {
      q.enqueue('t', ['new'], 4);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LogsvcError);
    expect((err as LogsvcError).kind).toBe('limit');
    expect((err as LogsvcError).httpStatus).toBe(429);
    expect((err as LogsvcError).message).toBe('too many outstanding requests');
    expect(TOO_MANY_OUTSTANDING_REQUESTS).toBe('too many outstanding requests');
    // The limit is per tenant, the refused request created no queue, and room comes back.
    q.enqueue('other', [], 5);
    expect(q.length('t')).toBe(3);
    expect(q.length()).toBe(4);
    expect(q.dequeue()).toEqual({ tenant: 't', item: 1 });
    q.enqueue('t', [], 6);
    expect(() => q.enqueue('t', [], 7)).toThrow('too many outstanding requests');
  });

  it('truncates a path deeper than max_queue_hierarchy_levels, ignores paths at 0', () => {
    const q = new RequestQueue<number>({ maxOutstandingPerTenant: 10 });
    q.enqueue('t', ['a', 'b', 'c'], 1);
    // Queued in a|b|c, behind the first: one FIFO.
    q.enqueue('t', ['a', 'b', 'c', 'd'], 2);
    expect(q.length()).toBe(2);
    expect(drain(q)).toEqual([1, 2]);

    const flat = new RequestQueue<number>({
      maxOutstandingPerTenant: 10,
      maxQueueHierarchyLevels: 0,
    });
    flat.enqueue('t', ['x', 'y', 'z', 'w', 'v'], 1);
    flat.enqueue('t', ['q'], 2);
    flat.enqueue('t', [], 3);
    // No sub-queues: a single FIFO per tenant.
    expect(drain(flat)).toEqual([1, 2, 3]);
  });

  it('refuses an empty tenant', () => {
    const q = new RequestQueue<number>({ maxOutstandingPerTenant: 10 });
    expect(() => q.enqueue('', [], 1)).toThrow('no queue found: empty tenant is not allowed');
  });

  it('prunes empty sub-queues and tenant queues', () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 10 });
    q.enqueue('t', ['a'], 'a1');
    q.enqueue('t', ['b', 'c'], 'c1');
    q.enqueue('t', ['b', 'c'], 'c2');
    q.enqueue('u', [], 'u1');
    expect(q.tenantCount).toBe(2);
    expect(q.dequeue()?.item).toBe('a1');
    expect(q.dequeue()?.item).toBe('u1');
    expect(q.tenantCount).toBe(1);
    expect(q.dequeue()?.item).toBe('c1');
    expect(q.dequeue()?.item).toBe('c2');
    expect(q.dequeue()).toBeUndefined();
    expect(q.tenantCount).toBe(0);
    expect(q.length()).toBe(0);
    expect(q.length('t')).toBe(0);
  });

  it('prunes a drained sub-queue while its siblings still hold items', () => {
    const t = new TreeQueue<string>('t');
    t.enqueue(['a'], 'a1');
    t.enqueue(['b'], 'b1');
    t.enqueue(['b'], 'b2');
    expect(t.dequeue()).toBe('a1');
    expect(t.describe().children.map((c) => c.name)).toEqual(['b']);
    expect(t.dequeue()).toBe('b1');
    expect(t.dequeue()).toBe('b2');
    expect(t.describe()).toEqual({ name: 't', local: [], children: [] });
    expect(t.dequeue()).toBe(EMPTY);
  });

  it('keeps undefined and null items', () => {
    const q = new RequestQueue<number | undefined | null>({ maxOutstandingPerTenant: 10 });
    q.enqueue('t', ['a'], undefined);
    q.enqueue('t', [], null);
    expect(q.dequeue()).toEqual({ tenant: 't', item: null });
    expect(q.dequeue()).toEqual({ tenant: 't', item: undefined });
    expect(q.dequeue()).toBeUndefined();
  });
});

describe('RequestQueue queriers', () => {
  it('gives each querier connection its own round-robin position over the tenants', () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 10 });
    for (const t of ['A', 'B', 'C']) for (let i = 0; i < 2; i++) q.enqueue(t, [], `${t}${i}`);
    const q1 = q.connect('q1');
    const q2 = q.connect('q2');
    expect(q1.dequeue()?.item).toBe('A0');
    expect(q2.dequeue()?.item).toBe('A1');
    expect(q1.dequeue()?.item).toBe('B0');
    expect(q1.dequeue()?.item).toBe('C0');
    expect(q2.dequeue()?.item).toBe('B1');
    expect(q.querierCount).toBe(2);
    q1.close();
    q1.close();
    expect(q.querierCount).toBe(1);
    expect(q1.dequeue()).toBeUndefined();
  });

  it('gives a querier that announced its shutdown no more requests', () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 10 });
    q.enqueue('t', [], 'x');
    const c = q.connect('q1');
    q.notifyQuerierShutdown('q1');
    expect(c.dequeue()).toBeUndefined();
    c.close();
    expect(q.querierCount).toBe(0);
    // Reconnecting clears the shutdown mark.
    const again = q.connect('q1');
    expect(again.dequeue()?.item).toBe('x');
  });

  it('next() waits for a request, and rejects when aborted or stopped', async () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 10 });
    const c = q.connect('q1');
    const waiting = c.next();
    const other = c.next();
    q.enqueue('t', ['a'], 'first');
    q.enqueue('t', ['b'], 'second');
    expect(new Set([(await waiting).item, (await other).item])).toEqual(
      new Set(['first', 'second']),
    );

    const ac = new AbortController();
    const aborted = c.next(ac.signal);
    ac.abort();
    await expect(aborted).rejects.toMatchObject({ kind: 'canceled' });

    const pending = c.next();
    q.enqueue('t', [], 'drained-before-stop');
    await expect(pending).resolves.toMatchObject({ item: 'drained-before-stop' });
    const stopping = c.next();
    await q.stop();
    await expect(stopping).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'queue is stopped',
    });
    expect(() => q.enqueue('t', [], 'late')).toThrow('queue is stopped');
  });

  it('stop() waits until connected queriers drained the queue', async () => {
    const q = new RequestQueue<string>({ maxOutstandingPerTenant: 10 });
    const c = q.connect('q1');
    q.enqueue('t', [], 'x');
    let stopped = false;
    const stopping = q.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    expect(c.dequeue()?.item).toBe('x');
    await stopping;
    expect(stopped).toBe(true);
  });
});
