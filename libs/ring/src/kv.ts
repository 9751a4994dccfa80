// The KV store behind a ring (Loki's `kvstore`): `inmemory` in one process, `etcd` in a cluster.

/**
 * A key-value store with compare-and-swap and watches. Values are opaque bytes (rings store
 * JSON, see `encodeRing`). Implementations: `InMemoryKv`, `EtcdKv`.
 */
export interface Kv {
  /** The key's value, or null when absent. */
  get(key: string): Promise<Buffer | null>;
  /**
   * Read-modify-write: calls `update` with the current value and stores its result only if the
   * key did not change in between; on a conflict reads again and retries (bounded). `update`
   * returns null to leave the key as it is. Two concurrent CAS calls never lose each other's
   * changes.
   */
  cas(key: string, update: (current: Buffer | null) => Buffer | null): Promise<void>;
  /** Removes the key. */
  delete(key: string): Promise<void>;
  /**
   * Calls `onValue` with the key's value now and after every change, until the returned
   * function is called. Changes may be coalesced; the last call always has the latest value.
   */
  watch(key: string, onValue: (value: Buffer | null) => void): () => void;
  /** Stops watches and releases connections. */
  close(): Promise<void>;
}
