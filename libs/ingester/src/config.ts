import type { ChunkEncoding } from '@logsvc/chunk';

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

/** Loki's `flush_op_backoff` defaults. */
export const DEFAULT_FLUSH_BACKOFF: FlushBackoffConfig = {
  min_period: 10_000,
  max_period: 60_000,
  max_retries: 10,
};

export const DEFAULT_INGESTER_CONFIG: IngesterConfig = {
  chunk_target_size: 1_572_864,
  chunk_block_size: 262_144,
  chunk_encoding: 'snappy',
  chunk_idle_period: 30 * 60_000,
  chunk_retain_period: 0,
  max_chunk_age: 2 * 3600_000,
  flush_check_period: 30_000,
  flush_op_timeout: 10 * 60_000,
  concurrent_flushes: 32,
  max_returned_stream_errors: 10,
  flush_op_backoff: DEFAULT_FLUSH_BACKOFF,
  wal: { enabled: true, dir: 'wal', checkpoint_duration: 5 * 60_000 },
};

export const DEFAULT_TENANT_LIMITS: IngesterTenantLimits = {
  max_streams_per_user: 0,
  max_global_streams_per_user: 5000,
  unordered_writes: true,
  per_stream_rate_limit: 3 * 1024 * 1024,
  per_stream_rate_limit_burst: 15 * 1024 * 1024,
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
