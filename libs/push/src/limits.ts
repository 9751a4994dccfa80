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

const MiB = 1 << 20;

/** Loki 3.4's defaults (`pkg/validation/limits.go`). */
export const DEFAULT_PUSH_LIMITS: Readonly<PushLimits> = Object.freeze({
  max_line_size: 256 * 1024,
  max_line_size_truncate: false,
  max_label_name_length: 1024,
  max_label_value_length: 2048,
  max_label_names_per_series: 15,
  reject_old_samples: true,
  reject_old_samples_max_age: 7 * 24 * 3600 * 1000,
  creation_grace_period: 10 * 60 * 1000,
  allow_structured_metadata: true,
  max_structured_metadata_size: 64 * 1024,
  max_structured_metadata_entries_count: 128,
  ingestion_rate_mb: 4,
  ingestion_burst_size_mb: 6,
  ingestion_rate_strategy: 'global' as const,
  per_stream_rate_limit: 3 * MiB,
  per_stream_rate_limit_burst: 15 * MiB,
  discover_service_name: Object.freeze([
    'service',
    'app',
    'application',
    'app_name',
    'name',
    'app_kubernetes_io_name',
    'container',
    'container_name',
    'k8s_container_name',
    'component',
    'workload',
    'job',
    'k8s_job_name',
  ]),
  discover_log_levels: true,
  log_level_fields: Object.freeze([
    'level',
    'LEVEL',
    'Level',
    'Severity',
    'severity',
    'SEVERITY',
    'lvl',
    'LVL',
    'Lvl',
  ]),
  block_ingestion_until: null,
  block_ingestion_status_code: 260,
});

/** Formats a byte count the way Go's `datasize.ByteSize.String()` does: `3MB`, `1500B`. */
export function formatByteSize(bytes: number): string {
  if (bytes === 0) return '0B';
  const units: [string, number][] = [
    ['EB', 2 ** 60],
    ['PB', 2 ** 50],
    ['TB', 2 ** 40],
    ['GB', 2 ** 30],
    ['MB', 2 ** 20],
    ['KB', 2 ** 10],
  ];
  for (const [name, size] of units) if (bytes % size === 0) return `${bytes / size}${name}`;
  return `${bytes}B`;
}
