import type { Kv } from './kv';

interface Entry {
  value: Buffer;
  version: number;
}

/**
 * The `inmemory` KV store: one process's rings (the single binary's default). Shared by every
 * ring of the process through `InMemoryKv.shared`; CAS is trivially atomic on one event loop.
 */
export class InMemoryKv implements Kv {
  static readonly shared = new InMemoryKv();

  private readonly entries = new Map<string, Entry>();
  private readonly watchers = new Map<string, Set<(value: Buffer | null) => void>>();

  async get(key: string): Promise<Buffer | null> {
    return this.entries.get(key)?.value ?? null;
  }

  async cas(key: string, update: (current: Buffer | null) => Buffer | null): Promise<void> {
    const current = this.entries.get(key);
    const next = update(current?.value ?? null);
    if (next === null) return;
    this.entries.set(key, { value: next, version: (current?.version ?? 0) + 1 });
    this.notify(key, next);
  }

  async delete(key: string): Promise<void> {
    if (this.entries.delete(key)) this.notify(key, null);
  }

  watch(key: string, onValue: (value: Buffer | null) => void): () => void {
    let set = this.watchers.get(key);
    if (!set) this.watchers.set(key, (set = new Set()));
    const watcher = (value: Buffer | null): void => onValue(value);
    set.add(watcher);
    onValue(this.entries.get(key)?.value ?? null);
    return () => {
      set.delete(watcher);
    };
  }

  async close(): Promise<void> {
    this.watchers.clear();
  }

  private notify(key: string, value: Buffer | null): void {
    for (const w of this.watchers.get(key) ?? []) w(value);
  }
}
