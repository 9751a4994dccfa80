/** The frontend's per-tenant limits of a request: for several tenants, the strictest of each. */
import type { Overrides } from '@logsvc/config';

export interface FrontendLimits {
  /** `split_queries_by_interval` in ns; 0 = no splitting. */
  readonly splitIntervalNs: bigint;
  /** `split_ingester_queries_by_interval` in ns (largest over the tenants); 0 = not set. */
  readonly ingesterSplitIntervalNs?: bigint;
  /** `split_instant_metric_queries_by_interval` in ns (smallest non-zero); 0 = no splitting. */
  readonly instantSplitIntervalNs?: bigint;
  /** `split_metadata_queries_by_interval` in ns (largest over the tenants); 0 = no splitting. */
  readonly metadataSplitIntervalNs?: bigint;
  /** `recent_metadata_query_window` in ns (largest); 0 = none. */
  readonly recentMetadataWindowNs?: bigint;
  /** `split_recent_metadata_queries_by_interval` in ns (largest); 0 = not used. */
  readonly recentMetadataSplitIntervalNs?: bigint;
  /** `max_query_parallelism`: sub-queries of one query running at once. */
  readonly maxQueryParallelism: number;
  /** `tsdb_max_query_parallelism`: the most shards a query part is cut into. */
  readonly maxShards: number;
  /** `tsdb_max_bytes_per_shard`: the bytes one shard should read at most. */
  readonly maxBytesPerShard: number;
  /** `max_cache_freshness_per_query` in ms: newer results are not cached. */
  readonly maxCacheFreshnessMs: number;
  /** `max_query_memory_bytes`: what the answers of a query's sub-queries may hold here. */
  readonly maxMemoryBytes: number;
  /** `max_query_bytes_read`: the bytes (per the index) a whole query may read; 0 = any. */
  readonly maxQueryBytesRead?: number;
  /** `max_querier_bytes_read`: the bytes (per the index) one sub-query may read; 0 = any. */
  readonly maxQuerierBytesRead?: number;
}

function smallestNonZero(values: readonly number[]): number {
  const set = values.filter((v) => v > 0);
  return set.length === 0 ? 0 : Math.min(...set);
}

export function frontendLimits(overrides: Overrides, tenants: readonly string[]): FrontendLimits {
  const all = tenants.map((t) => overrides.forTenant(t));
  const largestNs = (values: readonly number[]) => BigInt(Math.max(0, ...values)) * 1_000_000n;
  return {
    splitIntervalNs:
      BigInt(smallestNonZero(all.map((l) => l.split_queries_by_interval))) * 1_000_000n,
    ingesterSplitIntervalNs: largestNs(all.map((l) => l.split_ingester_queries_by_interval)),
    metadataSplitIntervalNs: largestNs(all.map((l) => l.split_metadata_queries_by_interval)),
    recentMetadataWindowNs: largestNs(all.map((l) => l.recent_metadata_query_window)),
    recentMetadataSplitIntervalNs: largestNs(
      all.map((l) => l.split_recent_metadata_queries_by_interval),
    ),
    instantSplitIntervalNs:
      BigInt(smallestNonZero(all.map((l) => l.split_instant_metric_queries_by_interval))) *
      1_000_000n,
    maxQueryParallelism: Math.max(1, smallestNonZero(all.map((l) => l.max_query_parallelism))),
    maxShards: Math.max(1, smallestNonZero(all.map((l) => l.tsdb_max_query_parallelism))),
    maxBytesPerShard: smallestNonZero(all.map((l) => l.tsdb_max_bytes_per_shard)),
    maxCacheFreshnessMs: Math.max(...all.map((l) => l.max_cache_freshness_per_query), 0),
    maxMemoryBytes: smallestNonZero(all.map((l) => l.max_query_memory_bytes)),
    maxQueryBytesRead: smallestNonZero(all.map((l) => l.max_query_bytes_read)),
    maxQuerierBytesRead: smallestNonZero(all.map((l) => l.max_querier_bytes_read)),
  };
}

/** How many sub-queries can really run side by side, and the least data worth a shard. */
export interface Parallelism {
  /** Workers (threads or queriers) that run sub-queries at once; 1 = no hint. */
  readonly workers: number;
  /** Below this many bytes per shard, cutting further costs more than it saves. */
  readonly minBytesPerShard: number;
}

/** No hint: Loki's shard factors. */
export const NO_PARALLELISM_HINT: Parallelism = { workers: 1, minBytesPerShard: Infinity };

/**
 * The shards a part of a query is cut into: enough that each reads at most `maxBytesPerShard`
 * of the bytes the index reports (Loki's rule, made for large clusters), and at least one per
 * worker that can run them side by side as long as each shard keeps `minBytesPerShard` (so a
 * 300 MB query keeps both cores of a small machine busy); a power of two as Loki's shard
 * factors, at most `maxShards`.
 */
export function shardFactor(
  bytes: number,
  limits: FrontendLimits,
  parallelism: Parallelism = NO_PARALLELISM_HINT,
): number {
  const bySize = limits.maxBytesPerShard > 0 ? Math.ceil(bytes / limits.maxBytesPerShard) : 1;
  const byWorkers = Math.min(parallelism.workers, Math.floor(bytes / parallelism.minBytesPerShard));
  const wanted = Math.max(1, bySize, byWorkers);
  let factor = 1;
  while (factor < wanted) factor *= 2;
  return Math.min(factor, limits.maxShards);
}
