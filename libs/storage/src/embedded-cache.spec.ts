import { mergeCacheStats, newCacheStats } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMBEDDED_CACHE_ENTRY_OVERHEAD_BYTES,
  EMBEDDED_CACHE_PURGE_INTERVAL_MS,
  EmbeddedCache,
  embeddedEntrySize,
} from './embedded-cache';

const bytes = (n: number): Uint8Array => new Uint8Array(n);

describe('embedded cache (Loki embedded_cache)', () => {
  it('accounts entry size as Loki does', () => {
    expect(embeddedEntrySize('abc', bytes(10))).toBe(EMBEDDED_CACHE_ENTRY_OVERHEAD_BYTES + 13);
    expect(embeddedEntrySize('é', bytes(0))).toBe(EMBEDDED_CACHE_ENTRY_OVERHEAD_BYTES + 2);
  });

  it('evicts the oldest stored entries to stay within max_size_mb', () => {
    const c = new EmbeddedCache({ maxSizeMb: 0.001 }); // 1000 bytes
    const v = bytes(300 - EMBEDDED_CACHE_ENTRY_OVERHEAD_BYTES - 1); // 300 bytes with a 1-char key
    c.store(['a', 'b', 'c'], [v, v, v]);
    expect(c.sizeBytes).toBe(900);
    c.get('a'); // a read does not refresh, as in Loki
    c.store(['d'], [v]);
    expect([c.get('a'), c.get('b'), c.get('c'), c.get('d')].map((x) => x !== undefined)).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(c.evicted.full).toBe(1);
    // a re-store moves the key to the newest end
    c.store(['b'], [v]);
    c.store(['e'], [v]);
    expect(c.get('c')).toBeUndefined();
    expect(c.get('b')).toBeDefined();
    expect(c.evicted.replaced).toBe(1);
    expect(c.sizeBytes).toBe(900);
  });

  it('does not keep an entry bigger than the cache', () => {
    const c = new EmbeddedCache({ maxSizeMb: 0.001 });
    c.store(['k'], [bytes(10)]);
    c.store(['k'], [bytes(2000)]);
    expect(c.get('k')).toBeUndefined();
    expect(c.size).toBe(0);
    expect(c.sizeBytes).toBe(0);
    expect(c.evicted['too big']).toBe(1);
  });

  it('bounds the item count with max_size_items', () => {
    const c = new EmbeddedCache({ maxSizeItems: 2 });
    c.store(['a', 'b', 'c'], [bytes(1), bytes(1), bytes(1)]);
    expect(c.size).toBe(2);
    expect(c.get('a')).toBeUndefined();
  });

  it('drops entries older than the TTL on the sweep', () => {
    let now = 0;
    const c = new EmbeddedCache({ ttlMs: 1000 }, () => now);
    c.store(['a'], [bytes(1)]);
    now = 600;
    c.store(['b'], [bytes(1)]);
    now = 1500;
    expect(c.get('a')).toBeDefined(); // served until swept, as in Loki
    expect(c.pruneExpired()).toBe(1);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBeDefined();
    expect(c.evicted.expired).toBe(1);
  });

  it('sweeps by itself on the first read a purge interval after the last sweep', () => {
    let now = 0;
    const c = new EmbeddedCache({ ttlMs: 1000 }, () => now);
    c.store(['a'], [bytes(1)]);
    now = EMBEDDED_CACHE_PURGE_INTERVAL_MS - 1;
    expect(c.get('a')).toBeDefined();
    now = EMBEDDED_CACHE_PURGE_INTERVAL_MS;
    expect(c.get('a')).toBeUndefined();
    expect(c.evicted.expired).toBe(1);
  });

  it('property: the byte total matches the entries and stays within the bound', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'ff'), fc.nat(700)), {
          maxLength: 60,
        }),
        (ops) => {
          const c = new EmbeddedCache({ maxSizeMb: 0.002 });
          const model = new Map<string, number>();
          for (const [k, n] of ops) {
            c.store([k], [bytes(n)]);
            model.set(k, n);
          }
          let total = 0;
          for (const [k, n] of model) {
            const v = c.get(k);
            if (v) {
              expect(v.byteLength).toBe(n);
              total += embeddedEntrySize(k, v);
            }
          }
          expect(c.sizeBytes).toBe(total);
          expect(c.sizeBytes).toBeLessThanOrEqual(2000);
          // the newest store always survives (every entry here fits)
          const [k, n] = ops.at(-1) ?? ['a', 0];
          if (ops.length > 0) expect(c.get(k)?.byteLength).toBe(n);
        },
      ),
    );
  });

  it('counts fetches and stores like Loki stats.cache.result', () => {
    const c = new EmbeddedCache();
    const st = newCacheStats();
    c.store(['a', 'b'], [bytes(5), bytes(7)], st);
    const r = c.fetch(['a', 'b', 'x'], st);
    expect(r.found).toEqual(['a', 'b']);
    expect(r.missing).toEqual(['x']);
    expect({ ...st, downloadTime: 0 }).toEqual({
      entriesFound: 2,
      entriesRequested: 3,
      entriesStored: 2,
      bytesReceived: 12,
      bytesSent: 0,
      requests: 2,
      downloadTime: 0,
      queryLengthServed: 0,
    });
    expect(st.downloadTime).toBeGreaterThanOrEqual(0);
    const total = mergeCacheStats(newCacheStats(), st);
    mergeCacheStats(total, st);
    expect(total.requests).toBe(4);
  });
});
