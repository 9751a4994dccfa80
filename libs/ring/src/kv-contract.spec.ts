// The behaviour every KV store shares, run against each implementation.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EtcdKv } from './etcd-kv';
import type { Kv } from './kv';
import { InMemoryKv } from './memory-kv';
import { type EtcdServer, startEtcd } from './testing/etcd-server';
import { increment, text, watchValues } from './testing/kv-values';

function describeKvContract(name: string, open: () => Promise<{ kv: Kv; close(): Promise<void> }>) {
  describe(`${name} (Kv contract)`, () => {
    let kv: Kv;
    let close: () => Promise<void>;
    let n = 0;
    // Each test works on its own key.
    const freshKey = (): string => `contract-${++n}`;

    beforeAll(async () => ({ kv, close } = await open()));
    afterAll(() => close());

    it('reads an absent key as null', async () => {
      expect(await kv.get(freshKey())).toBeNull();
    });

    it('creates a key with cas, then updates it from its current value', async () => {
      const key = freshKey();
      const seen: (string | null)[] = [];
      await kv.cas(key, (current) => (seen.push(text(current)), Buffer.from('one')));
      await kv.cas(key, (current) => (seen.push(text(current)), Buffer.from('two')));
      expect(seen).toEqual([null, 'one']);
      expect(text(await kv.get(key))).toBe('two');
    });

    it('leaves the key alone when the update returns null', async () => {
      const key = freshKey();
      await kv.cas(key, () => Buffer.from('kept'));
      await kv.cas(key, () => null);
      expect(text(await kv.get(key))).toBe('kept');
    });

    it('deletes a key, and deleting an absent key is fine', async () => {
      const key = freshKey();
      await kv.cas(key, () => Buffer.from('x'));
      await kv.delete(key);
      expect(await kv.get(key)).toBeNull();
      await expect(kv.delete(key)).resolves.toBeUndefined();
    });

    it('loses no update among concurrent cas calls', async () => {
      const key = freshKey();
      await Promise.all(Array.from({ length: 20 }, () => kv.cas(key, increment)));
      expect(text(await kv.get(key))).toBe('20');
    });

    it('watch delivers the current value, then every change, null once deleted', async () => {
      const key = freshKey();
      await kv.cas(key, () => Buffer.from('before'));
      const { values, stop } = watchValues(kv, key);
      await vi.waitFor(() => expect(values).toEqual(['before']));
      await kv.cas(key, () => Buffer.from('after'));
      await vi.waitFor(() => expect(values.at(-1)).toBe('after'));
      await kv.delete(key);
      await vi.waitFor(() => expect(values.at(-1)).toBeNull());
      stop();
    });

    it('watch of an absent key delivers null first', async () => {
      const { values, stop } = watchValues(kv, freshKey());
      await vi.waitFor(() => expect(values).toEqual([null]));
      stop();
    });

    it('delivers nothing once the watch is stopped', async () => {
      const key = freshKey();
      const { values, stop } = watchValues(kv, key);
      await vi.waitFor(() => expect(values).toEqual([null]));
      stop();
      await kv.cas(key, () => Buffer.from('unseen'));
      // A second watch sees the write, so the first one has had the chance to.
      const later: (string | null)[] = [];
      const stopLater = kv.watch(key, (value) => later.push(text(value)));
      await vi.waitFor(() => expect(later).toEqual(['unseen']));
      stopLater();
      expect(values).toEqual([null]);
    });
  });
}

describeKvContract('InMemoryKv', async () => {
  const kv = new InMemoryKv();
  return { kv, close: () => kv.close() };
});

let etcd: EtcdServer;
beforeAll(async () => {
  etcd = await startEtcd();
});
afterAll(() => etcd?.stop());

describeKvContract('EtcdKv', async () => {
  const kv = new EtcdKv({ endpoints: [etcd.endpoint], dialTimeoutMs: 2000, maxRetries: 10 });
  return { kv, close: () => kv.close() };
});
