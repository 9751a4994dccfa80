import { describe, expect, it } from 'vitest';
import { EtcdKv } from './etcd-kv';
import { createKv } from './kv-factory';
import { InMemoryKv } from './memory-kv';

const etcd = { endpoints: ['127.0.0.1:2379'], dialTimeoutMs: 1000, maxRetries: 10 };

describe('createKv', () => {
  it('gives every inmemory ring of the process the same store', () => {
    expect(createKv({ store: 'inmemory' })).toBe(InMemoryKv.shared);
  });

  it('connects etcd with the given settings (lazily: nothing is dialled yet)', async () => {
    const kv = createKv({ store: 'etcd', prefix: 'collectors/', etcd });
    expect(kv).toBeInstanceOf(EtcdKv);
    await kv.close();
  });

  it('refuses etcd without its settings', () => {
    expect(() => createKv({ store: 'etcd' })).toThrow(
      'kvstore etcd needs common.ring.kvstore.etcd',
    );
  });

  it.each(['memberlist', 'consul', 'multi'])('refuses %s, pointing at etcd', (store) => {
    expect(() => createKv({ store, etcd })).toThrow(
      `kvstore ${store} is not supported; use etcd (or inmemory in a single process)`,
    );
  });
});
