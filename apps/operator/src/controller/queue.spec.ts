import { describe, expect, it } from 'vitest';
import { WorkQueue } from './queue';

describe('WorkQueue', () => {
  it('queues a key once however often it is added', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    expect(await q.next()).toBe('a');
    expect(await q.next()).toBe('b');
    q.close();
    expect(await q.next()).toBeUndefined();
  });

  it('processes a key again when it changed while being processed', async () => {
    const q = new WorkQueue();
    q.add('a');
    const key = await q.next();
    q.add('a'); // an event arrives mid-reconcile
    q.done(key!);
    expect(await q.next()).toBe('a');
    q.close();
  });

  it('adds a key after a delay', async () => {
    const q = new WorkQueue();
    q.addAfter('later', 20);
    const started = Date.now();
    expect(await q.next()).toBe('later');
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    q.close();
  });
});
