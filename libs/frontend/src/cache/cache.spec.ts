import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bypassesCache,
  type Extent,
  maxCacheTimeMs,
  mergeExtents,
  type MsRange,
  partition,
  trimRecentExtents,
} from './extents';
import { hashKey, joinTenantIds, rangeQueryCacheKey } from './key';
import { jsonCodec, ResultsCacheStore } from './results-cache';
import { EmbeddedCache } from '@logsvc/storage';

const bytes = (n: number): Uint8Array => new Uint8Array(n);
const H_MS = 3_600_000;
const H_NS = 3_600_000_000_000n;

describe('results cache keys (Loki cacheKeyLimits.GenerateCacheKey)', () => {
  const base = {
    tenantIds: ['t1'],
    query: 'sum(rate({a="b"}[1m]))',
    stepMs: 15_000,
    splitIntervalNs: H_NS,
  };

  it('is tenant:query:step:bucket:split(ns)', () => {
    expect(rangeQueryCacheKey({ ...base, startMs: 5 * H_MS + 1 })).toBe(
      't1:sum(rate({a="b"}[1m])):15000:5:3600000000000',
    );
    expect(rangeQueryCacheKey({ ...base, startMs: 5 * H_MS, splitIntervalNs: 0n })).toBe(
      't1:sum(rate({a="b"}[1m])):15000:0:0',
    );
  });

  it('shares an entry within an interval, never across tenants, steps or split intervals', () => {
    const k = (o: Partial<typeof base> & { startMs: number }) =>
      rangeQueryCacheKey({ ...base, ...o });
    expect(k({ startMs: 5 * H_MS })).toBe(k({ startMs: 6 * H_MS - 1 }));
    expect(k({ startMs: 5 * H_MS })).not.toBe(k({ startMs: 6 * H_MS }));
    expect(k({ startMs: 0, tenantIds: ['t2'] })).not.toBe(k({ startMs: 0 }));
    expect(k({ startMs: 0, stepMs: 30_000 })).not.toBe(k({ startMs: 0 }));
    expect(k({ startMs: 0, splitIntervalNs: 2n * H_NS })).not.toBe(k({ startMs: 0 }));
  });

  it('joins tenants sorted and distinct, as dskit does', () => {
    expect(joinTenantIds(['b', 'a', 'b'])).toBe('a|b');
    expect(rangeQueryCacheKey({ ...base, tenantIds: ['b', 'a'], startMs: 0 })).toBe(
      rangeQueryCacheKey({ ...base, tenantIds: ['a', 'b'], startMs: 0 }),
    );
  });

  it('hashes with FNV-1a 64 like cache.HashKey', () => {
    expect(hashKey('')).toBe('cbf29ce484222325');
    expect(hashKey('a')).toBe('af63dc4c8601ec8c');
    expect(hashKey('foobar')).toBe('85944171f73967e8');
  });

  it('keeps tenants apart in the store even under one hash', () => {
    const store = new ResultsCacheStore<string>(new EmbeddedCache(), jsonCodec());
    const k1 = rangeQueryCacheKey({ ...base, startMs: 0 });
    const k2 = rangeQueryCacheKey({ ...base, tenantIds: ['t2'], startMs: 0 });
    store.put(k1, [{ startMs: 0, endMs: 10, response: 'one' }]);
    expect(store.get(k1)).toEqual([{ startMs: 0, endMs: 10, response: 'one' }]);
    expect(store.get(k2)).toBeUndefined();
    // a stored entry whose key differs (a collision) is a miss
    const cache = new EmbeddedCache();
    cache.store([hashKey(k2)], [jsonCodec<string>().encode({ key: k1, extents: [] })]);
    expect(new ResultsCacheStore<string>(cache, jsonCodec()).get(k2)).toBeUndefined();
    cache.store([hashKey(k1)], [bytes(3)]); // undecodable
    expect(new ResultsCacheStore<string>(cache, jsonCodec()).get(k1)).toBeUndefined();
  });
});

describe('results cache extents (Loki partition / merge)', () => {
  const ext = (startMs: number, endMs: number): Extent<string> => ({
    startMs,
    endMs,
    response: `${startMs}-${endMs}`,
  });
  const opts = { minCacheExtentMs: 0 };
  const ranges = (rs: MsRange[]) => rs.map((r) => [r.startMs, r.endMs]);

  it('fetches the gaps around and between extents', () => {
    const { requests, cached } = partition(
      { startMs: 0, endMs: 100 },
      [ext(10, 30), ext(50, 70)],
      opts,
    );
    expect(ranges(requests)).toEqual([
      [0, 10],
      [30, 50],
      [70, 100],
    ]);
    expect(cached.map((c) => [c.extent.response, c.startMs, c.endMs])).toEqual([
      ['10-30', 10, 30],
      ['50-70', 50, 70],
    ]);
  });

  it('a full hit needs no request', () => {
    const { requests, cached } = partition({ startMs: 20, endMs: 40 }, [ext(0, 100)], opts);
    expect(requests).toEqual([]);
    expect(cached).toHaveLength(1);
  });

  it('ignores extents outside the request and tiny ones for a long request', () => {
    expect(partition({ startMs: 0, endMs: 10 }, [ext(11, 20)], opts).requests).toEqual([
      { startMs: 0, endMs: 10 },
    ]);
    const r = partition({ startMs: 0, endMs: H_MS }, [ext(0, 60_000)]);
    expect(r.cached).toEqual([]);
    expect(ranges(r.requests)).toEqual([[0, H_MS]]);
    // a tiny request may use a tiny extent
    expect(partition({ startMs: 0, endMs: 60_000 }, [ext(0, 60_000)]).requests).toEqual([]);
  });

  it('start = end: fetched unless an extent holds it', () => {
    expect(partition({ startMs: 5, endMs: 5 }, [], opts).requests).toEqual([
      { startMs: 5, endMs: 5 },
    ]);
    expect(partition({ startMs: 5, endMs: 5 }, [ext(0, 10)], opts).requests).toEqual([]);
  });

  it('with onlyUseEntireExtent skips extents that stick out of the request', () => {
    const { requests, cached } = partition({ startMs: 0, endMs: 100 }, [ext(-5, 20), ext(40, 60)], {
      ...opts,
      onlyUseEntireExtent: true,
    });
    expect(cached.map((c) => c.extent.response)).toEqual(['40-60']);
    expect(ranges(requests)).toEqual([
      [0, 40],
      [60, 100],
    ]);
  });

  it('property: requests and cached extents cover the request exactly, in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.tuple(fc.integer({ min: -100, max: 2100 }), fc.integer({ min: 1, max: 400 }))),
        (start, len, raw) => {
          const merged = mergeExtents(
            raw.map(([s, l]) => ext(s, s + l)),
            0,
            (a) => a,
          );
          const req = { startMs: start, endMs: start + len };
          const { requests, cached } = partition(req, merged, opts);
          // walk the covered pieces in time order: they tile [start, end]
          const pieces = [
            ...requests.map((r) => [r.startMs, r.endMs] as const),
            ...cached.map((c) => [c.startMs, c.endMs] as const),
          ].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          let at = req.startMs;
          for (const [s, e] of pieces) {
            expect(s).toBe(at);
            expect(e).toBeGreaterThanOrEqual(s);
            at = Math.max(at, e);
          }
          expect(at).toBe(req.endMs);
          for (const c of cached) {
            expect(c.extent.startMs).toBeLessThanOrEqual(c.startMs);
            expect(c.extent.endMs).toBeGreaterThanOrEqual(c.endMs);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('merges extents within one step, dropping contained ones', () => {
    const cat = (a: string, b: string) => `${a}+${b}`;
    expect(
      mergeExtents([ext(50, 60), ext(0, 10), ext(10, 30), ext(12, 20), ext(0, 5)], 0, cat),
    ).toEqual([
      { startMs: 0, endMs: 30, response: '0-10+10-30' },
      { startMs: 50, endMs: 60, response: '50-60' },
    ]);
    expect(mergeExtents([ext(0, 10), ext(15, 20)], 5, cat)).toEqual([
      { startMs: 0, endMs: 20, response: '0-10+15-20' },
    ]);
    expect(mergeExtents([], 5, cat)).toEqual([]);
  });

  it('never caches the freshest part', () => {
    expect(maxCacheTimeMs(1_000_000, 60_000, 15_000)).toBe(930_000);
    expect(bypassesCache({ startMs: 950_000, endMs: 1_000_000 }, 1_000_000, 60_000)).toBe(true);
    expect(bypassesCache({ startMs: 940_000, endMs: 1_000_000 }, 1_000_000, 60_000)).toBe(false);
    const got = trimRecentExtents(
      [ext(0, 100), ext(200, 1000)],
      500,
      (r, s, e) => `${r}@${s}-${e}`,
    );
    expect(got).toEqual([ext(0, 100), { startMs: 200, endMs: 500, response: '200-1000@200-500' }]);
  });
});
