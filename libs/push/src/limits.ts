import { DEFAULT_LIMITS } from '@logsvc/config';

/**
 * The per-tenant limits this library reads, named as in Loki's `limits_config`. Durations are
 * milliseconds and sizes bytes, so the config library's objects satisfy this structurally.
 */
export interface PushLimits {
  /** Bytes; 0 disables the check. */
  max_line_size: number;
  /** Truncate over-long lines to max_line_size instead of rejecting them. */
  max_line_size_truncate: boolean;
  max_label_name_length: number;
  max_label_value_length: number;
  max_label_names_per_series: number;
  reject_old_samples: boolean;
  /** Milliseconds. */
  reject_old_samples_max_age: number;
  /** Milliseconds. */
  creation_grace_period: number;
  allow_structured_metadata: boolean;
  /** Bytes; 0 disables the check. */
  max_structured_metadata_size: number;
  /** 0 disables the check. */
  max_structured_metadata_entries_count: number;
  /** Megabytes (MiB) per second. */
  ingestion_rate_mb: number;
  /** Megabytes (MiB). */
  ingestion_burst_size_mb: number;
  ingestion_rate_strategy: 'local' | 'global';
  /** Bytes per second. */
  per_stream_rate_limit: number;
  /** Bytes. */
  per_stream_rate_limit_burst: number;
  discover_service_name: readonly string[];
  discover_log_levels: boolean;
  log_level_fields: readonly string[];
  /**
   * Pushes are refused until this instant: epoch milliseconds or an RFC 3339 string.
   * 0, '' or null means not blocked.
   */
  block_ingestion_until: number | string | null;
  block_ingestion_status_code: number;
}

/** Loki 3.4's defaults (`pkg/validation/limits.go`), taken from @logsvc/config. */
export const DEFAULT_PUSH_LIMITS: Readonly<PushLimits> = Object.freeze({
  max_line_size: DEFAULT_LIMITS.max_line_size,
  max_line_size_truncate: DEFAULT_LIMITS.max_line_size_truncate,
  max_label_name_length: DEFAULT_LIMITS.max_label_name_length,
  max_label_value_length: DEFAULT_LIMITS.max_label_value_length,
  max_label_names_per_series: DEFAULT_LIMITS.max_label_names_per_series,
  reject_old_samples: DEFAULT_LIMITS.reject_old_samples,
  reject_old_samples_max_age: DEFAULT_LIMITS.reject_old_samples_max_age,
  creation_grace_period: DEFAULT_LIMITS.creation_grace_period,
  allow_structured_metadata: DEFAULT_LIMITS.allow_structured_metadata,
  max_structured_metadata_size: DEFAULT_LIMITS.max_structured_metadata_size,
  max_structured_metadata_entries_count: DEFAULT_LIMITS.max_structured_metadata_entries_count,
  ingestion_rate_mb: DEFAULT_LIMITS.ingestion_rate_mb,
  ingestion_burst_size_mb: DEFAULT_LIMITS.ingestion_burst_size_mb,
  ingestion_rate_strategy: DEFAULT_LIMITS.ingestion_rate_strategy,
  per_stream_rate_limit: DEFAULT_LIMITS.per_stream_rate_limit,
  per_stream_rate_limit_burst: DEFAULT_LIMITS.per_stream_rate_limit_burst,
  discover_service_name: DEFAULT_LIMITS.discover_service_name,
  discover_log_levels: DEFAULT_LIMITS.discover_log_levels,
  log_level_fields: DEFAULT_LIMITS.log_level_fields,
  block_ingestion_until: DEFAULT_LIMITS.block_ingestion_until,
  block_ingestion_status_code: DEFAULT_LIMITS.block_ingestion_status_code,
});
