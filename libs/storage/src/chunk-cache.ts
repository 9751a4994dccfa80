import type { CacheStats } from '@logsvc/api';
import { mapConcurrent } from './concurrency';
import { EmbeddedCache, type EmbeddedCacheConfig } from './embedded-cache';
import type { ChunkRef } from './index-model';

/**
 * Loki's chunk cache (`chunk_store_config.chunk_cache_config`) on its embedded cache: chunk
 * bytes already checked against their ref, by object key. A key names one immutable object
 * (it carries the tenant, the series, the time range and the checksum), so an entry is never
 * stale and tenants never share one.
 *
 * It pays off when a query is cut into sub-queries: every split of a query reads the chunks
 * that span its boundaries, and without the cache each one fetches and checks them again.
 * Concurrent misses of one key share one fetch.
 */
export class ChunkCache {
  private readonly cache: EmbeddedCache;
  private readonly inFlight = new Map<string, Promise<Buffer>>();

  constructor(config: EmbeddedCacheConfig) {
    this.cache = new EmbeddedCache(config);
  }

  /** Bytes held (Loki's accounting, with its per-entry overhead). */
  get sizeBytes(): number {
    return this.cache.sizeBytes;
  }

  /**
   * The chunks of `refs` in input order: one cache lookup for all of them, then `load` for the
   * missing ones (at most `concurrency` at a time), stored in one batch once all are checked.
   */
  async fetch(
    refs: readonly ChunkRef[],
    concurrency: number,
    load: (ref: ChunkRef) => Promise<Buffer>,
    stats?: CacheStats,
  ): Promise<Buffer[]> {
    const { found, values } = this.cache.fetch(
      refs.map((r) => r.key),
      stats,
    );
    const hits = new Map<string, Buffer>();
    for (let i = 0; i < found.length; i++) hits.set(found[i]!, toBuffer(values[i]!));
    const storedKeys: string[] = [];
    const storedValues: Buffer[] = [];
    const out = await mapConcurrent(refs, concurrency, async (ref) => {
      const hit = hits.get(ref.key);
      if (hit !== undefined) return hit;
      const shared = this.inFlight.get(ref.key);
      if (shared !== undefined) return shared;
      const loading = load(ref).finally(() => this.inFlight.delete(ref.key));
      this.inFlight.set(ref.key, loading);
      const data = await loading;
      storedKeys.push(ref.key);
      storedValues.push(data);
      return data;
    });
    if (storedKeys.length > 0) {
      this.cache.store(storedKeys, storedValues, stats);
      if (stats) for (const v of storedValues) stats.bytesSent += v.length;
    }
    return out;
  }
}

function toBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.length);
}
