import { describe, expect, it, vi } from 'vitest';
import { InMemoryKv } from './memory-kv';
import { RingWatcher } from './ring-watcher';
import { ringOf } from './testing/ring-fixtures';
import { encodeRing } from './types';

const KEY = 'collectors/ring';
const NOW = 1_000_000;

function watcher(kv: InMemoryKv, logger = { info: vi.fn(), warn: vi.fn() }): RingWatcher {
  return new RingWatcher({
    kv,
    key: KEY,
    replicationFactor: 1,
    heartbeatTimeoutMs: 60_000,
    now: () => NOW,
    logger,
  });
}

describe('RingWatcher', () => {
  it('serves the ring stored under its key and follows changes', async () => {
    const kv = new InMemoryKv();
    await kv.cas(KEY, () => encodeRing(ringOf({ a: { tokens: [10], heartbeatMs: NOW } })));
    const w = watcher(kv);
    await w.start();
    expect(Object.keys(w.desc().instances)).toEqual(['a']);
    expect(
      w
        .ring()
        .writeSet(5)
        .instances.map((i) => i.id),
    ).toEqual(['a']);

    const changes: string[][] = [];
    w.onChange((desc) => changes.push(Object.keys(desc.instances)));
    await kv.cas(KEY, () =>
      encodeRing(
        ringOf({ a: { tokens: [10], heartbeatMs: NOW }, b: { tokens: [20], heartbeatMs: NOW } }),
      ),
    );
    expect(changes).toEqual([['a', 'b']]);
    expect(
      w
        .ring()
        .writeSet(15)
        .instances.map((i) => i.id),
    ).toEqual(['b']);
    w.stop();
  });

  it('starts with an empty ring when the key is absent', async () => {
    const w = watcher(new InMemoryKv());
    await w.start();
    expect(w.desc().instances).toEqual({});
    expect(() => w.ring().readSet()).toThrow('empty ring');
  });

  it('builds one Ring per change', async () => {
    const kv = new InMemoryKv();
    const w = watcher(kv);
    await w.start();
    const first = w.ring();
    expect(w.ring()).toBe(first);
    await kv.cas(KEY, () => encodeRing(ringOf({ a: { tokens: [10] } })));
    expect(w.ring()).not.toBe(first);
  });

  it('keeps the last good ring when a value cannot be decoded', async () => {
    const kv = new InMemoryKv();
    await kv.cas(KEY, () => encodeRing(ringOf({ a: { tokens: [10] } })));
    const logger = { info: vi.fn(), warn: vi.fn() };
    const w = watcher(kv, logger);
    await w.start();
    await kv.cas(KEY, () => Buffer.from('{"instances":'));
    expect(Object.keys(w.desc().instances)).toEqual(['a']);
    expect(logger.warn).toHaveBeenCalledOnce();
  });

  it('stops following the key after stop, and unsubscribed listeners are not called', async () => {
    const kv = new InMemoryKv();
    const w = watcher(kv);
    await w.start();
    const listener = vi.fn();
    const unsubscribe = w.onChange(listener);
    unsubscribe();
    await kv.cas(KEY, () => encodeRing(ringOf({ a: { tokens: [10] } })));
    expect(listener).not.toHaveBeenCalled();
    w.stop();
    await kv.cas(KEY, () => encodeRing(ringOf({ b: { tokens: [10] } })));
    expect(Object.keys(w.desc().instances)).toEqual(['a']);
  });
});
