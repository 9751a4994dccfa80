import type { CacheStats } from '@logsvc/api';

/** Loki's `embedded_cache` block (pkg/storage/chunk/cache/embeddedcache.go). */
export interface EmbeddedCacheConfig {
  /** `max_size_mb` (default 100; 1 MB = 1e6 bytes as in Loki). 0 = no byte bound. */
  readonly maxSizeMb?: number;
  /** `max_size_items` (default 0 = no item bound). */
  readonly maxSizeItems?: number;
  /** `ttl` in milliseconds (default 1h); 0 = entries never expire. */
  readonly ttlMs?: number;
}

export const DEFAULT_EMBEDDED_CACHE_MAX_SIZE_MB = 100;
export const DEFAULT_EMBEDDED_CACHE_TTL_MS = 3_600_000;
/** How often Loki runs the expiry sweep ({@link EmbeddedCache.pruneExpired}); here it runs on
 * the first read or store after the interval, so an idle cache holds no timer. */
export const EMBEDDED_CACHE_PURGE_INTERVAL_MS = 60_000;

/**
 * Per-entry bookkeeping Loki adds to the key and value bytes: `unsafe.Sizeof(Entry)` (64) +
 * `list.Element` (48) + a pointer (8) on 64-bit Go.
 */
export const EMBEDDED_CACHE_ENTRY_OVERHEAD_BYTES = 120;

export type EvictionReason = 'expired' | 'full' | 'replaced' | 'too big';

interface Entry {
  readonly key: string;
  readonly value: Uint8Array;
  readonly updatedMs: number;
  readonly size: number;
}

/** Loki's `sizeOf` for a `[]byte` entry. */
export function embeddedEntrySize(key: string, value: Uint8Array): number {
  return EMBEDDED_CACHE_ENTRY_OVERHEAD_BYTES + Buffer.byteLength(key, 'utf8') + value.byteLength;
}

/**
 * Loki's in-process cache: entries bounded by bytes and/or count, oldest evicted first, and
 * removed by a periodic sweep once older than the TTL.
 *
 * As in Loki, a read does not refresh an entry: the eviction order is the order of the last
 * store of each key (a re-store moves the key to the newest end), and an entry past its TTL
 * is still served until {@link pruneExpired} runs (Loki sweeps every minute; here the first
 * read or store a minute after the last sweep runs it). An entry larger
 * than the whole cache is not kept (and a re-store of such a size drops the old value).
 * Not synchronised with anything but itself: single-threaded JavaScript needs no lock.
 */
export class EmbeddedCache {
  /** Insertion-ordered: the first key is the oldest (Loki's list back). */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxItems: number;
  private readonly ttlMs: number;
  private lastSweepMs: number;
  /** Evictions by reason, as Loki's `evicted_total{reason}`. */
  readonly evicted: Record<EvictionReason, number> = {
    expired: 0,
    full: 0,
    replaced: 0,
    'too big': 0,
  };

  constructor(
    config: EmbeddedCacheConfig = {},
    private readonly now: () => number = Date.now,
  ) {
    this.maxBytes = (config.maxSizeMb ?? DEFAULT_EMBEDDED_CACHE_MAX_SIZE_MB) * 1e6;
    this.maxItems = config.maxSizeItems ?? 0;
    this.ttlMs = config.ttlMs ?? DEFAULT_EMBEDDED_CACHE_TTL_MS;
    this.lastSweepMs = now();
  }

  /** Bytes accounted (Loki's `memory_bytes`). */
  get sizeBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Uint8Array | undefined {
    this.sweepWhenDue();
    return this.entries.get(key)?.value;
  }

  /**
   * Loki's `Fetch` behind its stats collector: one request, and entries requested/found,
   * bytes received and download time added to `stats` when given.
   */
  fetch(
    keys: readonly string[],
    stats?: CacheStats,
  ): { found: string[]; values: Uint8Array[]; missing: string[] } {
    const t0 = process.hrtime.bigint();
    const found: string[] = [];
    const values: Uint8Array[] = [];
    const missing: string[] = [];
    for (const key of keys) {
      const v = this.get(key);
      if (v === undefined) missing.push(key);
      else {
        found.push(key);
        values.push(v);
      }
    }
    if (stats) {
      stats.requests++;
      stats.downloadTime += Number(process.hrtime.bigint() - t0);
      stats.entriesFound += found.length;
      stats.entriesRequested += keys.length;
      for (const v of values) stats.bytesReceived += v.byteLength;
    }
    return { found, values, missing };
  }

  /** Loki's `Store` behind its stats collector: one request, `keys.length` entries stored. */
  store(keys: readonly string[], values: readonly Uint8Array[], stats?: CacheStats): void {
    if (stats) {
      stats.requests++;
      stats.entriesStored += keys.length;
    }
    for (let i = 0; i < keys.length; i++) this.put(keys[i]!, values[i]!);
  }

  private put(key: string, value: Uint8Array): void {
    this.sweepWhenDue();
    const old = this.entries.get(key);
    if (old) this.remove(old, 'replaced');
    const size = embeddedEntrySize(key, value);
    if (this.maxBytes > 0 && size > this.maxBytes) {
      if (old) this.evicted['too big']++;
      return;
    }
    while (
      (this.maxBytes > 0 && this.bytes + size > this.maxBytes) ||
      (this.maxItems > 0 && this.entries.size >= this.maxItems)
    ) {
      const oldest = this.entries.values().next();
      if (oldest.done) break;
      this.remove(oldest.value, 'full');
    }
    this.entries.set(key, { key, value, updatedMs: this.now(), size });
    this.bytes += size;
  }

  private remove(entry: Entry, reason: EvictionReason): void {
    this.entries.delete(entry.key);
    this.bytes -= entry.size;
    this.evicted[reason]++;
  }

  private sweepWhenDue(): void {
    const now = this.now();
    if (now - this.lastSweepMs < EMBEDDED_CACHE_PURGE_INTERVAL_MS) return;
    this.lastSweepMs = now;
    this.pruneExpired();
  }

  /** Loki's TTL sweep: drops entries stored more than `ttl` ago. Returns how many. */
  pruneExpired(): number {
    if (this.ttlMs <= 0) return 0;
    const now = this.now();
    let n = 0;
    for (const e of [...this.entries.values()]) {
      if (now - e.updatedMs > this.ttlMs) {
        this.remove(e, 'expired');
        n++;
      }
    }
    return n;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
