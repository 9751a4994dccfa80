/**
 * A least-recently-used map of at most `maxSize` entries (hashicorp's simplelru, as Loki's
 * drain uses it): `get` and `set` make an entry the newest; adding past the size evicts the
 * oldest, and every removal calls `onEvict`.
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    private readonly maxSize: number,
    private readonly onEvict: (key: K, value: V) => void,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.maxSize) {
      const oldest = this.map.keys().next().value as K;
      this.remove(oldest);
    }
  }

  remove(key: K): void {
    const value = this.map.get(key);
    if (value === undefined) return;
    this.map.delete(key);
    this.onEvict(key, value);
  }

  /** Oldest first. */
  values(): V[] {
    return [...this.map.values()];
  }
}
