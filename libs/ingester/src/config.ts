import type { ChunkEncoding } from '@logsvc/chunk';
import { DEFAULT_CONFIG } from '@logsvc/config';

/**
 * The `ingester` settings this library reads, with Loki's YAML key names. Durations are
 * milliseconds and sizes bytes, so the config lib's `ingester` object satisfies it as is.
 */
export interface IngesterConfig {
  readonly chunk_target_size: number;
  readonly chunk_block_size: number;
  readonly chunk_encoding: ChunkEncoding;
  readonly chunk_idle_period: number;
  readonly chunk_retain_period: number;
  readonly max_chunk_age: number;
  readonly flush_check_period: number;
  readonly flush_op_timeout: number;
  readonly concurrent_flushes: number;
  readonly max_returned_stream_errors: number;
  /** Streams in memory over all tenants; a push may not create more (0: no limit). */
  readonly max_global_streams: number;
  /**
   * Uncompressed head-block bytes over all streams; past it the largest heads are cut into
   * blocks early (0 or absent: no limit).
   */
  readonly max_head_block_bytes?: number;
  /**
   * With the WAL on, compressed cut blocks go to files under `<wal.dir>/block-spill` and are read
   * back when needed (absent: false).
   */
  readonly spill_chunk_blocks?: boolean;
  /** Retry schedule of one flush operation; Loki's defaults when absent. */
  readonly flush_op_backoff?: FlushBackoffConfig;
  readonly wal: WalConfig;
}

export interface FlushBackoffConfig {
  readonly min_period: number;
  readonly max_period: number;
  readonly max_retries: number;
}

export interface WalConfig {
  readonly enabled: boolean;
  readonly dir: string;
  readonly checkpoint_duration: number;
}

/** A stream's ingestion rate limit (Loki `limits_config` names). */
export interface StreamRateLimits {
  /** Bytes per second. */
  readonly per_stream_rate_limit: number;
  /** Bytes. */
  readonly per_stream_rate_limit_burst: number;
}

/** The per-tenant limits the ingester enforces (Loki `limits_config` names). */
export interface IngesterTenantLimits extends StreamRateLimits {
  readonly max_streams_per_user: number;
  readonly max_global_streams_per_user: number;
  readonly unordered_writes: boolean;
}

/** Returns the effective limits (defaults merged with overrides) of one tenant. */
export type IngesterLimitsProvider = (tenant: string) => IngesterTenantLimits;

/**
 * How the global stream limit is shared: Loki divides `max_global_streams_per_user` by the
 * number of healthy ingesters and multiplies by the replication factor.
 */
export interface RingShare {
  readonly healthyIngesters: number;
  readonly replicationFactor: number;
}

/** Loki's `flush_op_backoff` defaults (not a setting logsvc's config accepts). */
export const DEFAULT_FLUSH_BACKOFF: FlushBackoffConfig = {
  min_period: 10_000,
  max_period: 60_000,
  max_retries: 10,
};

const { ingester: defaults, limits_config: defaultLimits } = DEFAULT_CONFIG;

/** The ingester settings at their defaults, taken from @logsvc/config. */
export const DEFAULT_INGESTER_CONFIG: IngesterConfig = {
  chunk_target_size: defaults.chunk_target_size,
  chunk_block_size: defaults.chunk_block_size,
  chunk_encoding: defaults.chunk_encoding,
  chunk_idle_period: defaults.chunk_idle_period,
  chunk_retain_period: defaults.chunk_retain_period,
  max_chunk_age: defaults.max_chunk_age,
  flush_check_period: defaults.flush_check_period,
  flush_op_timeout: defaults.flush_op_timeout,
  concurrent_flushes: defaults.concurrent_flushes,
  max_returned_stream_errors: defaults.max_returned_stream_errors,
  max_global_streams: defaults.max_global_streams,
  max_head_block_bytes: defaults.max_head_block_bytes,
  spill_chunk_blocks: defaults.spill_chunk_blocks,
  flush_op_backoff: DEFAULT_FLUSH_BACKOFF,
  wal: {
    enabled: defaults.wal.enabled,
    dir: defaults.wal.dir,
    checkpoint_duration: defaults.wal.checkpoint_duration,
  },
};

/** The stream limits at their defaults, taken from @logsvc/config. */
export const DEFAULT_TENANT_LIMITS: IngesterTenantLimits = {
  max_streams_per_user: defaultLimits.max_streams_per_user,
  max_global_streams_per_user: defaultLimits.max_global_streams_per_user,
  unordered_writes: defaultLimits.unordered_writes,
  per_stream_rate_limit: defaultLimits.per_stream_rate_limit,
  per_stream_rate_limit_burst: defaultLimits.per_stream_rate_limit_burst,
};

/** Loki's `Limiter.GetStreamCountLimit`: the smaller non-zero of local and shared global. */
export function streamCountLimit(limits: IngesterTenantLimits, share: RingShare): number {
  const local = limits.max_streams_per_user;
  let global = 0;
  if (limits.max_global_streams_per_user > 0 && share.healthyIngesters > 0) {
    global = Math.floor(
      (limits.max_global_streams_per_user / share.healthyIngesters) * share.replicationFactor,
    );
  }
  const nonZero = [local, global].filter((n) => n > 0);
  return nonZero.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...nonZero);
}
