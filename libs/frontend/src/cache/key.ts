/**
 * Results-cache keys as Loki generates them for range queries (`cacheKeyLimits.GenerateCacheKey`
 * in pkg/querier/queryrange/limits.go) and stores them (`cache.HashKey`).
 */

export interface RangeQueryCacheKeyInput {
  /** The request's tenants; joined as Loki's `tenant.JoinTenantIDs` after sorting and dedup. */
  readonly tenantIds: readonly string[];
  readonly query: string;
  readonly stepMs: number;
  readonly startMs: number;
  /** The split interval in force for this request (`split_queries_by_interval`); 0 = none. */
  readonly splitIntervalNs: bigint;
}

/** `tenant.NormalizeTenantIDs` then `JoinTenantIDs`: sorted, distinct, joined by `|`. */
export function joinTenantIds(tenantIds: readonly string[]): string {
  return [...new Set(tenantIds)].sort().join('|');
}

/**
 * `<tenants>:<query>:<step ms>:<interval bucket>:<split ns>`, where the bucket is the start
 * (ms) divided by the split interval (ms): every sub-query of one split interval shares an
 * entry, tenants never do, and a change of split interval never reuses an entry.
 */
export function rangeQueryCacheKey(input: RangeQueryCacheKeyInput): string {
  const splitMs = input.splitIntervalNs / 1_000_000n;
  // Go's integer division truncates toward zero, as BigInt's does.
  const bucket = splitMs > 0n ? BigInt(Math.trunc(input.startMs)) / splitMs : 0n;
  const tenants = joinTenantIds(input.tenantIds);
  return `${tenants}:${input.query}:${input.stepMs}:${bucket}:${input.splitIntervalNs}`;
}

const FNV64_OFFSET = 0xcbf29ce484222325n;
const FNV64_PRIME = 0x100000001b3n;
const MASK64 = (1n << 64n) - 1n;

/** Loki's `cache.HashKey`: FNV-1a 64 of the key's UTF-8 bytes, as 16 hex digits. */
export function hashKey(key: string): string {
  let h = FNV64_OFFSET;
  for (const b of Buffer.from(key, 'utf8')) {
    h ^= BigInt(b);
    h = (h * FNV64_PRIME) & MASK64;
  }
  return h.toString(16).padStart(16, '0');
}
