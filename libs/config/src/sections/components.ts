// Sections of the query path, ruler, compactor and the smaller components.
import { bool, duration, int, oneOf, section, size, str } from '../fields';

export const rulerSection = section({
  enable_api: bool(true),
  // Empty means `<common.path_prefix>/rules-temp`.
  rule_path: str(''),
  storage: section({
    type: oneOf(['local', 's3'], 'local'),
    // Empty means `<common.path_prefix>/rules`.
    local: section({ directory: str('') }),
  }),
  evaluation_interval: duration(60_000),
  poll_interval: duration(60_000),
  alertmanager_url: str(''),
  external_url: str(''),
});

export const compactorSection = section({
  // Empty means `<common.path_prefix>/compactor`.
  working_directory: str(''),
  compaction_interval: duration(10 * 60_000),
  retention_enabled: bool(false),
  retention_delete_delay: duration(2 * 3600_000),
  retention_delete_worker_count: int(150, 1),
  delete_request_store: str(''),
  delete_request_cancel_period: duration(24 * 3600_000),
  delete_max_interval: duration(24 * 3600_000),
});

export const querierSection = section({
  multi_tenant_queries_enabled: bool(false),
  query_ingesters_within: duration(3 * 3600_000),
  max_concurrent: int(4, 1),
  tail_max_duration: duration(3600_000),
  extra_query_delay: duration(0),
  query_ingester_only: bool(false),
  query_store_only: bool(false),
  per_request_limits_enabled: bool(false),
  // Worker threads that decode and search chunks for queries with a line filter: 0 = one per
  // core this process may use, -1 = none (every chunk is read on the event loop).
  scan_workers: int(0, -1),
  engine: section({
    max_look_back_period: duration(30_000),
  }),
});

export const queryRangeSection = section({
  align_queries_with_step: bool(false),
  cache_results: bool(false),
  max_retries: int(5),
  parallelise_shardable_queries: bool(true),
});

export const frontendSection = section({
  max_outstanding_per_tenant: int(2048, 1),
  compress_responses: bool(false),
  support_parquet_encoding: bool(false),
  query_stats_enabled: bool(false),
  scheduler_address: str(''),
  log_queries_longer_than: duration(0),
});

export const querySchedulerSection = section({
  max_outstanding_requests_per_tenant: int(32000, 1),
  max_queue_hierarchy_levels: int(3),
  querier_forget_delay: duration(0),
  use_scheduler_ring: bool(false),
});

export const patternIngesterSection = section({
  enabled: bool(false),
});

export const runtimeConfigSection = section({
  file: str(''),
  period: duration(10_000),
});

export const distributorSection = section({
  // Largest accepted request body (Loki: -distributor.max-recv-msg-size).
  max_recv_msg_size: size(100 * 1024 * 1024),
});
