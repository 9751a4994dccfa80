import { z } from 'zod';
import {
  bool,
  duration,
  float,
  int,
  oneOf,
  section,
  size,
  str,
  stringList,
  timestamp,
  flag,
} from '../fields';

const HOUR = 3600_000;
const MB = 1024 * 1024;

/** One `retention_stream` entry: a per-selector retention period. */
const retentionStream = z.strictObject({
  selector: str(''),
  priority: int(0),
  period: duration(0),
});

/**
 * `limits_config`: Loki's per-tenant limits with Loki 3.4's defaults
 * (pkg/validation/limits.go). Per-tenant values come from the runtime config's `overrides`.
 */
export const limitsSection = section({
  ingestion_rate_strategy: flag(
    'distributor.ingestion-rate-limit-strategy',
    oneOf(['global', 'local'], 'global'),
  ),
  ingestion_rate_mb: flag('distributor.ingestion-rate-limit-mb', float(4)),
  ingestion_burst_size_mb: flag('distributor.ingestion-burst-size-mb', float(6)),
  max_line_size: flag('distributor.max-line-size', size(256 * 1024)),
  max_line_size_truncate: flag('distributor.max-line-size-truncate', bool(false)),
  max_label_name_length: flag('validation.max-length-label-name', int(1024)),
  max_label_value_length: flag('validation.max-length-label-value', int(2048)),
  max_label_names_per_series: flag('validation.max-label-names-per-series', int(15)),
  reject_old_samples: flag('validation.reject-old-samples', bool(true)),
  reject_old_samples_max_age: flag('validation.reject-old-samples.max-age', duration(168 * HOUR)),
  creation_grace_period: flag('validation.create-grace-period', duration(10 * 60_000)),
  increment_duplicate_timestamp: flag('validation.increment-duplicate-timestamps', bool(false)),
  discover_service_name: flag(
    'validation.discover-service-name',
    stringList([
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
  ),
  discover_log_levels: flag('validation.discover-log-levels', bool(true)),
  log_level_fields: flag(
    'validation.log-level-fields',
    stringList([
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
  ),
  use_owned_stream_count: flag('ingester.use-owned-stream-count', bool(false)),
  max_streams_per_user: flag('ingester.max-streams-per-user', int(0)),
  max_global_streams_per_user: flag('ingester.max-global-streams-per-user', int(5000)),
  unordered_writes: flag('ingester.unordered-writes', bool(true)),
  per_stream_rate_limit: flag('ingester.per-stream-rate-limit', size(3 * MB)),
  per_stream_rate_limit_burst: flag('ingester.per-stream-rate-limit-burst', size(15 * MB)),
  max_chunks_per_query: flag('store.query-chunk-limit', int(2_000_000)),
  max_query_series: flag('querier.max-query-series', int(500)),
  max_query_lookback: flag('querier.max-query-lookback', duration(0)),
  max_query_length: flag('store.max-query-length', duration(721 * HOUR)),
  max_query_range: flag('querier.max-query-range', duration(0)),
  max_query_parallelism: flag('querier.max-query-parallelism', int(32)),
  tsdb_max_query_parallelism: flag('querier.tsdb-max-query-parallelism', int(128)),
  tsdb_max_bytes_per_shard: flag('querier.tsdb-max-bytes-per-shard', size(600 * MB)),
  cardinality_limit: flag('store.cardinality-limit', int(100_000)),
  max_streams_matchers_per_query: flag('querier.max-streams-matcher-per-query', int(1000)),
  max_concurrent_tail_requests: flag('querier.max-concurrent-tail-requests', int(10)),
  max_entries_limit_per_query: flag('validation.max-entries-limit', int(5000)),
  /**
   * logsvc's own: what one query evaluation may hold of lines, labels, series and samples
   * (its answer and working set), in every thread and process it runs in; 0 = no limit.
   */
  max_query_memory_bytes: flag('querier.max-query-memory-bytes', size(256 * MB)),
  max_cache_freshness_per_query: flag('frontend.max-cache-freshness', duration(10 * 60_000)),
  max_metadata_cache_freshness: flag('frontend.max-metadata-cache-freshness', duration(24 * HOUR)),
  max_stats_cache_freshness: flag('frontend.max-stats-cache-freshness', duration(10 * 60_000)),
  max_queriers_per_tenant: flag('frontend.max-queriers-per-tenant', int(0)),
  max_query_capacity: flag('frontend.max-query-capacity', float(0)),
  query_timeout: flag('querier.query-timeout', duration(60_000)),
  split_queries_by_interval: flag('querier.split-queries-by-interval', duration(HOUR)),
  split_instant_metric_queries_by_interval: duration(HOUR),
  split_metadata_queries_by_interval: flag(
    'querier.split-metadata-queries-by-interval',
    duration(24 * HOUR),
  ),
  split_recent_metadata_queries_by_interval: flag(
    'experimental.querier.split-recent-metadata-queries-by-interval',
    duration(HOUR),
  ),
  recent_metadata_query_window: flag(
    'experimental.querier.recent-metadata-query-window',
    duration(0),
  ),
  split_ingester_queries_by_interval: flag(
    'querier.split-ingester-queries-by-interval',
    duration(0),
  ),
  min_sharding_lookback: flag('frontend.min-sharding-lookback', duration(0)),
  max_query_bytes_read: flag('frontend.max-query-bytes-read', size(0)),
  max_querier_bytes_read: flag('frontend.max-querier-bytes-read', size(150 * 1024 * MB)),
  volume_enabled: flag('limits.volume-enabled', bool(true)),
  volume_max_series: flag('limits.volume-max-series', int(1000)),
  deletion_mode: flag(
    'compactor.deletion-mode',
    oneOf(['disabled', 'filter-only', 'filter-and-delete'], 'filter-and-delete'),
  ),
  retention_period: flag('store.retention', duration(0)),
  retention_stream: z.array(retentionStream).default(() => []),
  allow_structured_metadata: flag('validation.allow-structured-metadata', bool(true)),
  max_structured_metadata_size: flag('limits.max-structured-metadata-size', size(64 * 1024)),
  max_structured_metadata_entries_count: flag(
    'limits.max-structured-metadata-entries-count',
    int(128),
  ),
  block_ingestion_until: timestamp(),
  block_ingestion_status_code: flag('limits.block-ingestion-status-code', int(260)),
  shard_aggregations: flag('limits.shard-aggregations', stringList([])),
  ruler_max_rules_per_rule_group: flag('ruler.max-rules-per-rule-group', int(0)),
  ruler_max_rule_groups_per_tenant: flag('ruler.max-rule-groups-per-tenant', int(0)),
  /** Remote rule evaluation's timeout; 0: `query_timeout` (as Loki, YAML only). */
  ruler_remote_evaluation_timeout: duration(0),
  /** Largest answer a remote rule evaluation takes, in bytes; 0: any (YAML only). */
  ruler_remote_evaluation_max_response_size: int(0),
});

/** The effective limits of one tenant: `limits_config` with that tenant's overrides applied. */
export type TenantLimits = z.output<typeof limitsSection>;
