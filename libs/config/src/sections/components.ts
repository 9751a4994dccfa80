// Sections of the query path, ruler, compactor and the smaller components.
import { z } from 'zod';
import { bool, duration, float, int, oneOf, section, size, str, flag } from '../fields';
import {
  distributorRingSection,
  lifecyclerSection,
  lokiRingSection,
  rulerRingSection,
} from './ring';
import { grpcClientSection, grpcClientTlsFields } from './tls';

export const rulerSection = section({
  enable_api: flag('ruler.enable-api', bool(true)),
  // Empty means `<common.path_prefix>/rules-temp`.
  rule_path: flag('ruler.rule-path', str('')),
  storage: section({
    // `local`: Loki's directory layout (writable here); `s3`: Loki's object store layout on
    // S3; `filesystem`: the object store layout on a directory (logsvc's addition).
    type: flag('ruler.storage.type', oneOf(['local', 's3', 'filesystem'], 'local')),
    // Empty means `<common.path_prefix>/rules`.
    local: section({ directory: flag('ruler.storage.local.directory', str('')) }),
    filesystem: section({ directory: flag('ruler.storage.filesystem.directory', str('')) }),
    s3: section({
      endpoint: flag('ruler.storage.s3.endpoint', str('')),
      region: flag('ruler.storage.s3.region', str('')),
      bucketnames: flag('ruler.storage.s3.buckets', str('')),
      access_key_id: flag('ruler.storage.s3.access-key-id', str('')),
      secret_access_key: flag('ruler.storage.s3.secret-access-key', str('')),
      s3forcepathstyle: flag('ruler.storage.s3.force-path-style', bool(false)),
      insecure: flag('ruler.storage.s3.insecure', bool(false)),
    }),
  }),
  evaluation_interval: flag('ruler.evaluation-interval', duration(60_000)),
  poll_interval: flag('ruler.poll-interval', duration(60_000)),
  alertmanager_url: flag('ruler.alertmanager-url', str('')),
  external_url: flag('ruler.external.url', str('')),
  datasource_uid: flag('ruler.datasource-uid', str('')),
  notification_queue_capacity: flag('ruler.notification-queue-capacity', int(10000, 1)),
  notification_timeout: flag('ruler.notification-timeout', duration(10_000)),
  resend_delay: flag('ruler.resend-delay', duration(60_000)),
  // Restoring alerts' `for` state at start (see docs/rules.md). Loki's ruler reads no stored
  // state, so the outage tolerance changes nothing there either; it is accepted as Loki's.
  for_outage_tolerance: flag('ruler.for-outage-tolerance', duration(3_600_000)),
  for_grace_period: flag('ruler.for-grace-period', duration(10 * 60_000)),
  enable_sharding: flag('ruler.enable-sharding', bool(false)),
  remote_write: section({
    enabled: flag('ruler.remote-write.enabled', bool(false)),
    add_org_id_header: flag('ruler.remote-write.add-org-id-header', bool(true)),
    // Client ID → Prometheus remote_write settings (url, headers, remote_timeout).
    clients: z
      .record(
        z.string(),
        z.strictObject({
          url: z.string(),
          name: z.string().optional(),
          headers: z.record(z.string(), z.string()).optional(),
          remote_timeout: z.string().optional(),
          // Prometheus' queue tuning: accepted with a warning (parse.ts), logsvc sends as it goes.
          queue_config: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .default(() => ({})),
  }),
  evaluation: section({
    mode: flag('ruler.evaluation.mode', oneOf(['local', 'remote'], 'local')),
    max_jitter: flag('ruler.evaluation.max-jitter', duration(0)),
    /** `remote`: rules are evaluated by query frontends, over gRPC (`httpgrpc.HTTP/Handle`). */
    query_frontend: section({
      address: flag('ruler.evaluation.query-frontend.address', str('')),
      ...grpcClientTlsFields('ruler.evaluation.query-frontend'),
    }),
  }),
  ring: rulerRingSection(),
  // The client a ruler asks other rulers for their groups with.
  ruler_client: grpcClientSection('ruler.client'),
});

export const compactorSection = section({
  // Empty means `<common.path_prefix>/compactor`.
  working_directory: flag('compactor.working-directory', str('')),
  compaction_interval: flag('compactor.compaction-interval', duration(10 * 60_000)),
  retention_enabled: flag('compactor.retention-enabled', bool(false)),
  retention_delete_delay: flag('compactor.retention-delete-delay', duration(2 * 3600_000)),
  retention_delete_worker_count: flag('compactor.retention-delete-worker-count', int(150, 1)),
  delete_request_store: flag('compactor.delete-request-store', str('')),
  delete_request_cancel_period: flag(
    'compactor.delete-request-cancel-period',
    duration(24 * 3600_000),
  ),
  delete_max_interval: flag('compactor.delete-max-interval', duration(24 * 3600_000)),
  // logsvc's own: merge a stream's adjacent small chunks of a table into chunks up to the size.
  compact_small_chunks: flag('compactor.compact-small-chunks', bool(true)),
  small_chunks_target_size: flag('compactor.small-chunks-target-size', size(1_572_864)),
  // Elects the one compactor that runs (one token, replication factor 1, as in Loki).
  compactor_ring: lokiRingSection('compactor.', { numTokens: 1, replicationFactor: 1 }),
});

export const querierSection = section({
  multi_tenant_queries_enabled: flag('querier.multi-tenant-queries-enabled', bool(false)),
  query_ingesters_within: flag('querier.query-ingesters-within', duration(3 * 3600_000)),
  max_concurrent: flag('querier.max-concurrent', int(4, 1)),
  tail_max_duration: flag('querier.tail-max-duration', duration(3600_000)),
  extra_query_delay: flag('querier.extra-query-delay', duration(0)),
  query_ingester_only: flag('querier.query-ingester-only', bool(false)),
  query_store_only: flag('querier.query-store-only', bool(false)),
  per_request_limits_enabled: flag('querier.per-request-limits-enabled', bool(false)),
  // Worker threads that decode and search chunks for queries with a line filter: 0 = one per
  // core this process may use, -1 = none (every chunk is read on the event loop).
  scan_workers: flag('querier.scan-workers', int(0, -1)),
  // Worker threads that run whole sub-queries of the query frontend (store-only ones, and see
  // query_workers_ingester_data): 0 = one per core this process may use, -1 = none (every
  // sub-query runs on the event loop).
  query_workers: flag('querier.query-workers', int(0, -1)),
  // Decoded blocks of flushed chunks kept per thread (the main thread and each query worker)
  // for the next split of a query that reads them; 0 = none. logsvc's own, not Loki's.
  block_cache_mb: flag('querier.block-cache-mb', int(128, 0)),
  // Whether those workers also run sub-queries over the in-process ingester's data (the single
  // binary): the main thread copies the chunks a sub-query selects to its worker. Only for
  // sub-queries that reach at least `query_workers_min_ingester_bytes` (uncompressed) in memory.
  query_workers_ingester_data: flag('querier.query-workers-ingester-data', bool(true)),
  query_workers_min_ingester_bytes: flag(
    'querier.query-workers-min-ingester-bytes',
    size(1024 * 1024),
  ),
  engine: section({
    max_look_back_period: flag('querier.engine.max-lookback-period', duration(30_000)),
  }),
});

export const queryRangeSection = section({
  align_queries_with_step: flag('querier.align-querier-with-step', bool(false)),
  // On by default (Loki: off): the single binary caches query results in memory out of the box.
  cache_results: flag('querier.cache-results', bool(true)),
  results_cache: section({
    cache: section({
      default_validity: flag('frontend.default-validity', duration(3_600_000)),
      embedded_cache: section({
        enabled: flag('frontend.embedded-cache.enabled', bool(false)),
        max_size_mb: flag('frontend.embedded-cache.max-size-mb', int(100)),
        max_size_items: flag('frontend.embedded-cache.max-size-items', int(0)),
        ttl: flag('frontend.embedded-cache.ttl', duration(3_600_000)),
      }),
      memcached_client: section({
        addresses: flag('frontend.memcached.addresses', str('')),
        host: flag('frontend.memcached.hostname', str('')),
        service: flag('frontend.memcached.service', str('memcached')),
        timeout: flag('frontend.memcached.timeout', duration(500)),
      }),
    }),
    compression: flag('frontend.compression', str('')),
  }),
  max_retries: flag('querier.max-retries-per-request', int(5)),
  parallelise_shardable_queries: flag('querier.parallelise-shardable-queries', bool(true)),
});

export const frontendSection = section({
  max_outstanding_per_tenant: flag('querier.max-outstanding-requests-per-tenant', int(2048, 1)),
  compress_responses: flag('querier.compress-http-responses', bool(false)),
  support_parquet_encoding: flag('frontend.support-parquet-encoding', bool(false)),
  query_stats_enabled: flag('frontend.query-stats-enabled', bool(false)),
  scheduler_address: flag('frontend.scheduler-address', str('')),
  log_queries_longer_than: flag('frontend.log-queries-longer-than', duration(0)),
  // The client a frontend submits sub-queries to the query schedulers with.
  grpc_client_config: grpcClientSection('frontend.grpc-client-config'),
});

/** Loki's `frontend_worker`: where a querier pulls its jobs from (`-querier.*` flags). */
export const frontendWorkerSection = section({
  frontend_address: flag('querier.frontend-address', str('')),
  scheduler_address: flag('querier.scheduler-address', str('')),
  dns_lookup_duration: flag('querier.dns-lookup-period', duration(3_000)),
  // Empty means the host name, as in Loki.
  id: flag('querier.id', str('')),
  // The client a querier pulls sub-queries from schedulers (or frontends) with.
  grpc_client_config: grpcClientSection('querier.frontend-client'),
});

export const querySchedulerSection = section({
  max_outstanding_requests_per_tenant: flag(
    'query-scheduler.max-outstanding-requests-per-tenant',
    int(32000, 1),
  ),
  max_queue_hierarchy_levels: flag('query-scheduler.max-queue-hierarchy-levels', int(3)),
  querier_forget_delay: flag('query-scheduler.querier-forget-delay', duration(0)),
  use_scheduler_ring: flag('query-scheduler.use-scheduler-ring', bool(false)),
  // Two schedulers of the ring serve queriers (one token each, as in Loki).
  scheduler_ring: lokiRingSection('query-scheduler.', { numTokens: 1, replicationFactor: 2 }),
});

export const patternIngesterSection = section({
  enabled: flag('pattern-ingester.enabled', bool(false)),
  // Pattern ingesters register in their own ring; each stream goes to one of them (RF 1).
  lifecycler: lifecyclerSection('pattern-ingester.', { replicationFactor: 1 }),
  concurrent_flushes: flag('pattern-ingester.concurrent-flushes', int(32, 1)),
  // How often samples older than 3 h are dropped.
  flush_check_period: flag('pattern-ingester.flush-check-period', duration(60_000)),
  max_clusters: flag('pattern-ingester.max-clusters', int(300)),
  max_eviction_ratio: flag('pattern-ingester.max-eviction-ratio', float(0.25)),
  connection_timeout: flag('pattern-ingester.connection-timeout', duration(2_000)),
  max_allowed_line_length: flag('pattern-ingester.max-allowed-line-length', int(3000)),
  tee_config: section({
    batch_size: flag('pattern-ingester.tee.batch-size', int(5000, 1)),
    batch_flush_interval: flag('pattern-ingester.tee.batch-flush-interval', duration(1_000)),
    flush_queue_size: flag('pattern-ingester.tee.flush-queue-size', int(1000, 1)),
    flush_worker_count: flag('pattern-ingester.tee.flush-worker-count', int(100, 1)),
    stop_flush_timeout: flag('pattern-ingester.tee.stop-flush-timeout', duration(30_000)),
  }),
  // The client distributors and queriers reach pattern ingesters with.
  client_config: section({ grpc_client_config: grpcClientSection('pattern-ingester.client') }),
});

/** `ingester_client`: the client distributors and queriers reach ingesters with. */
export const ingesterClientSection = section({
  grpc_client_config: grpcClientSection('ingester.client'),
});

/**
 * `ui` (logsvc's own): the admin UI. `cluster_actions` lets the UI change other processes (log
 * level, flush, prepare_shutdown through `/ui/api/instances/<id>/...`); off, it only reads them.
 */
export const uiSection = section({
  cluster_actions: flag('ui.cluster-actions', bool(false)),
});

export const runtimeConfigSection = section({
  file: flag('runtime-config.file', str('')),
  period: flag('runtime-config.reload-period', duration(10_000)),
});

export const distributorSection = section({
  // Largest accepted request body (Loki: -distributor.max-recv-msg-size).
  max_recv_msg_size: flag('distributor.max-recv-msg-size', size(100 * 1024 * 1024)),
  ring: distributorRingSection(),
});

/** `index_gateway`: `simple` serves every tenant; `ring` shards tenants over a ring of gateways. */
export const indexGatewaySection = section({
  mode: flag('index-gateway.mode', oneOf(['simple', 'ring'], 'simple')),
  ring: lokiRingSection('index-gateway.', { replicationFactorFlag: 'replication-factor' }),
});
