import { EtcdKv, type EtcdKvOptions } from './etcd-kv';
import type { Kv } from './kv';
import { InMemoryKv } from './memory-kv';

/**
 * `common.ring.kvstore` as plain options (camelCase of Loki's names), so callers map their
 * parsed config onto it.
 */
export interface KvStoreOptions {
  /** `inmemory` or `etcd`; Loki's other stores (memberlist, consul, multi) are refused. */
  readonly store: string;
  /** Prepended to every key (etcd only; the inmemory store is private to the process). */
  readonly prefix?: string;
  /** Required when `store` is `etcd`. */
  readonly etcd?: Omit<EtcdKvOptions, 'prefix'>;
}

/** The KV store `common.ring.kvstore` names. */
export function createKv(options: KvStoreOptions): Kv {
  switch (options.store) {
    case 'inmemory':
      return InMemoryKv.shared;
    case 'etcd':
      if (!options.etcd) throw new Error('kvstore etcd needs common.ring.kvstore.etcd settings');
      return new EtcdKv({ ...options.etcd, prefix: options.prefix });
    default:
      throw new Error(
        `kvstore ${options.store} is not supported; use etcd (or inmemory in a single process)`,
      );
  }
}
