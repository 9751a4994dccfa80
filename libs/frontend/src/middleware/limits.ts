/** The frontend's per-tenant limits of a request: for several tenants, the strictest of each. */
import type { Overrides } from '@logsvc/config';

export interface FrontendLimits {
  /** `split_queries_by_interval` in ns; 0 = no splitting. */
  readonly splitIntervalNs: bigint;
  /** `max_query_parallelism`: sub-queries of one query running at once. */
  readonly maxQueryParallelism: number;
  /** `tsdb_max_query_parallelism`: the most shards a query part is cut into. */
  readonly maxShards: number;
  /** `tsdb_max_bytes_per_shard`: the bytes one shard should read at most. */
  readonly maxBytesPerShard: number;
  /** `max_cache_freshness_per_query` in ms: newer results are not cached. */
  readonly maxCacheFreshnessMs: number;
}

function smallestNonZero(values: readonly number[]): number {
  const set = values.filter((v) => v > 0);
  return set.length === 0 ? 0 : Math.min(...set);
}

export function frontendLimits(overrides: Overrides, tenants: readonly string[]): FrontendLimits {
  const all = tenants.map((t) => overrides.forTenant(t));
  return {
    splitIntervalNs:
      BigInt(smallestNonZero(all.map((l) => l.split_queries_by_interval))) * 1_000_000n,
    maxQueryParallelism: Math.max(1, smallestNonZero(all.map((l) => l.max_query_parallelism))),
    maxShards: Math.max(1, smallestNonZero(all.map((l) => l.tsdb_max_query_parallelism))),
    maxBytesPerShard: smallestNonZero(all.map((l) => l.tsdb_max_bytes_per_shard)),
    maxCacheFreshnessMs: Math.max(...all.map((l) => l.max_cache_freshness_per_query), 0),
  };
}

/**
 * The shards a part of a query is cut into: enough that each reads at most `maxBytesPerShard`
 * of the bytes the index reports, a power of two as Loki's shard factors, at most `maxShards`.
 */
export function shardFactor(bytes: number, limits: FrontendLimits): number {
  if (limits.maxBytesPerShard <= 0 || bytes <= limits.maxBytesPerShard) return 1;
  const wanted = Math.ceil(bytes / limits.maxBytesPerShard);
  let factor = 1;
  while (factor < wanted) factor *= 2;
  return Math.min(factor, limits.maxShards);
}
