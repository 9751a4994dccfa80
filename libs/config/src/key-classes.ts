// What logsvc does with each key of Loki's configuration reference that it does not wire.
// A key is one of:
// - wired: logsvc's schema has it and acts on it (every schema key no rule below names);
// - warn: accepted, and named in one log line at start with the reason it has no effect. Only
//   where ignoring it cannot change what is stored, what a query answers, or who may read it;
// - refused: start-up stops with the reason and the alternative, unless the key is written at
//   Loki's default (then logsvc behaves as Loki does by default).
// The first rule whose pattern matches wins. Patterns are dotted paths where `*` is one
// segment and `**` any number of them (list elements are `name[]`).

export type KeyClass = 'wired' | 'warn' | 'refused';

export interface KeyRule {
  readonly pattern: string;
  readonly class: Exclude<KeyClass, 'wired'>;
  /** warn: why the key has no effect; refused: why logsvc cannot honour it. */
  readonly reason: string;
  /** refused: what to do instead. */
  readonly instead?: string;
}

const warn = (pattern: string, reason: string): KeyRule => ({ pattern, class: 'warn', reason });
const refuse = (pattern: string, reason: string, instead: string): KeyRule => ({
  pattern,
  class: 'refused',
  reason,
  instead,
});

const warnEach = (patterns: readonly string[], reason: string): KeyRule[] =>
  patterns.map((p) => warn(p, reason));
const refuseEach = (patterns: readonly string[], reason: string, instead: string): KeyRule[] =>
  patterns.map((p) => refuse(p, reason, instead));

const TLS_REASON =
  'logsvc has TLS only on its gRPC connections (server.grpc_tls_config, grpc_client_config tls_*) and to etcd';
const TLS_INSTEAD = 'leave it out and secure the network (a service mesh or a TLS proxy)';
const NO_BACKEND = (name: string) => `logsvc has no ${name} object store client`;
const BACKEND_INSTEAD = 'use filesystem, s3 (or an S3-compatible gateway) or azure';
const CACHE_REASON =
  'caches only make reads faster; logsvc uses its embedded caches (memcached and redis are not used)';
const KAFKA_REASON = "logsvc has no Kafka ingestion path (Loki's experimental one)";
const KAFKA_INSTEAD = 'leave it out: pushes go through the distributor to the ingesters';
const GRPC_CLIENT = 'connection tuning of a gRPC client: logsvc uses its own client settings';
const INTERFACES =
  'logsvc advertises instance_addr (or the host address it finds) instead of reading interfaces';
const NO_GOSSIP = 'logsvc has no gossip: rings live in etcd, or in memory in a single process';

export const KEY_RULES: readonly KeyRule[] = [
  // Telemetry and process tuning: nothing stored or answered depends on them.
  warn('analytics.**', 'logsvc sends no usage reports'),
  warn('tracing.**', 'logsvc has no tracing'),
  warn('profiling.**', 'Go runtime profiling rates; logsvc runs on Node.js'),
  warn('ballast_bytes', 'a Go garbage collector setting; logsvc runs on Node.js'),
  warn('metrics_namespace', "logsvc's metrics always use the loki_ prefix"),
  warn('shutdown_delay', 'logsvc stops serving at once when asked to stop'),
  warn('operational_config.**', 'extra debug logging of pushes and streams'),
  // memberlist: join_members is handled in memberlist.ts.
  warn('memberlist.**', NO_GOSSIP),

  // Addresses and interfaces.
  ...warnEach(
    [
      '**.instance_interface_names',
      '**.instance_enable_ipv6',
      'ingester.lifecycler.interface_names',
      'ingester.lifecycler.enable_inet6',
    ],
    INTERFACES,
  ),
  warn('**.kvstore.etcd.tls_cipher_suites', 'etcd TLS uses Node.js defaults'),
  warn('**.kvstore.etcd.tls_min_version', 'etcd TLS uses Node.js defaults'),
  refuse(
    '**.kvstore.consul.**',
    'logsvc keeps rings in etcd only',
    'set kvstore.store: etcd (or inmemory)',
  ),
  refuse(
    '**.kvstore.multi.**',
    'logsvc keeps rings in etcd only',
    'set kvstore.store: etcd (or inmemory)',
  ),

  // TLS beyond the gRPC and etcd keys the schema has: ignoring it would send data in the clear.
  ...refuseEach(
    [
      '**.tls_config.**',
      '**.http_tls_config.**',
      '**.grpc_tls_config.**',
      '**.tail_tls_config.**',
      '**.tls_enabled',
      '**.tls_cert_path',
      '**.tls_key_path',
      '**.tls_ca_path',
      '**.tls_server_name',
      '**.tls_insecure_skip_verify',
      '**.tls_cipher_suites',
      '**.tls_min_version',
    ],
    TLS_REASON,
    TLS_INSTEAD,
  ),

  // gRPC client tuning (sizes, backoff, compression, rate limits).
  ...warnEach(
    [
      '**.grpc_client_config.**',
      '**.*_grpc_client.**',
      '**.*_grpc_client_config.**',
      'compactor_grpc_client.**',
      'ingester_client.**',
      '**.ruler_client.**',
      'pattern_ingester.client_config.**',
    ],
    GRPC_CLIENT,
  ),

  // server
  warn('server.http_server_write_timeout', 'query answers are never cut short by a write timeout'),
  warn('server.log_format', 'logsvc always logs JSON lines'),
  warn('server.log_request_headers', 'request logging is logsvc’s own'),
  warn('server.log_request_*', 'request logging is logsvc’s own'),
  warn('server.log_source_ips*', 'request logging is logsvc’s own'),
  warn('server.http_log_closed_connections_without_response_enabled', 'request logging'),
  warn('server.register_instrumentation', 'logsvc always serves /metrics'),
  warn('server.report_grpc_codes_in_instrumentation_label_enabled', 'metric labels only'),
  warn('server.grpc_server_*', 'gRPC server tuning: logsvc uses its own settings'),
  warn('server.grpc_listen_conn_limit', 'connection limits are not enforced'),
  warn('server.http_listen_conn_limit', 'connection limits are not enforced'),
  warn('server.http_server_read_header_timeout', 'covered by http_server_read_timeout'),
  warn('server.proxy_protocol_enabled', 'logsvc reads no PROXY protocol header'),
  refuse('server.http_listen_network', 'logsvc listens on TCP only', 'leave it out (tcp)'),
  refuse('server.grpc_listen_network', 'logsvc listens on TCP only', 'leave it out (tcp)'),
  refuse(
    'server.http_path_prefix',
    'logsvc serves its API at the root path',
    'strip the prefix in a reverse proxy',
  ),

  // Storage backends logsvc does not have.
  ...['bigtable', 'cassandra', 'boltdb', 'grpc_store', 'swift', 'cos', 'bos', 'alibabacloud'].map(
    (name) => refuse(`storage_config.${name}.**`, NO_BACKEND(name), BACKEND_INSTEAD),
  ),
  refuse('storage_config.gcs.**', NO_BACKEND('gcs'), BACKEND_INSTEAD),
  ...[
    'use_managed_identity',
    'use_federated_token',
    'user_assigned_id',
    'use_service_principal',
    'client_id',
    'client_secret',
    'tenant_id',
  ].map((key) =>
    refuse(
      `**.azure.${key}`,
      'logsvc signs Azure requests with the account key only',
      'set account_name and account_key, or connection_string',
    ),
  ),
  warn('**.azure.chunk_delimiter', 'logsvc names Azure blobs as it names every object'),
  warn('**.azure.*_buffer_*', 'transfer tuning: logsvc uses its own settings'),
  refuse('**.azure.**', NO_BACKEND('azure'), BACKEND_INSTEAD),
  refuse(
    'storage_config.boltdb_shipper.**',
    'logsvc has no BoltDB index (only TSDB)',
    'use a tsdb period in schema_config',
  ),
  ...refuseEach(
    ['storage_config.object_store.**', 'storage_config.use_thanos_objstore'],
    'logsvc has no thanos/objstore clients',
    'configure storage_config.aws, azure or filesystem',
  ),
  refuse(
    'storage_config.named_stores.**',
    'logsvc has no named stores',
    'use one store per period (object_store: filesystem, s3 or azure)',
  ),
  refuse(
    'storage_config.object_prefix',
    'logsvc writes objects at the root of the bucket',
    'leave it out, or use another bucket',
  ),
  refuse('storage_config.aws.dynamodb.**', 'logsvc has no DynamoDB index', 'use a tsdb period'),
  refuse('**.sse.**', 'logsvc does not ask S3 for server-side encryption', 'use bucket encryption'),
  ...refuseEach(
    ['**.aws.s3', '**.s3.s3'],
    'logsvc does not read the s3:// URL form',
    'write endpoint, region, bucketnames, access_key_id and secret_access_key',
  ),
  refuse('**.session_token', 'logsvc does not send S3 session tokens', 'use an access key pair'),
  refuse('**.signature_version', 'logsvc signs S3 requests with v4 only', 'leave it out (v4)'),
  refuse(
    '**.storage_class',
    'logsvc does not set an S3 storage class',
    'use a bucket lifecycle rule',
  ),
  warn('**.aws.http_config.**', 'S3 HTTP client tuning: logsvc uses its own settings'),
  warn('**.s3.http_config.**', 'S3 HTTP client tuning: logsvc uses its own settings'),
  warn('**.aws.backoff_config.**', 'retry tuning: logsvc uses its own settings'),
  warn('**.s3.backoff_config.**', 'retry tuning: logsvc uses its own settings'),
  warn('**.disable_dualstack', 'endpoints are used as given'),
  warn('storage_config.hedging.**', 'request hedging only makes reads faster'),
  warn('storage_config.congestion_control.**', 'only changes the pace of object store requests'),
  warn('storage_config.max_chunk_batch_size', 'fetch tuning: logsvc uses its own settings'),
  warn('storage_config.max_parallel_get_chunk', 'fetch tuning: logsvc uses its own settings'),
  warn('storage_config.index_cache_validity', CACHE_REASON),
  warn('storage_config.disable_broad_index_queries', 'index fetch tuning'),
  warn('storage_config.index_queries_cache_config.**', CACHE_REASON),
  warn('storage_config.bloom_shipper.**', 'logsvc has no bloom filters; answers are the same'),
  warn(
    'storage_config.tsdb_shipper.active_index_directory',
    'logsvc writes index files straight to the object store and keeps no local copy there',
  ),
  warn(
    'storage_config.tsdb_shipper.cache_location',
    'logsvc caches index files in memory, not in a directory',
  ),
  warn('storage_config.tsdb_shipper.**', 'index shipping tuning: logsvc ships index files itself'),
  // common.storage: the same backends.
  ...['gcs', 'swift', 'cos', 'bos', 'alibabacloud'].map((name) =>
    refuse(`common.storage.${name}.**`, NO_BACKEND(name), BACKEND_INSTEAD),
  ),
  refuse(
    'common.storage.object_store.**',
    'logsvc has no thanos/objstore clients',
    'configure common.storage.s3, azure or filesystem',
  ),
  refuse('common.storage.hedging.**', 'logsvc does not hedge requests', 'leave it out'),
  refuse('common.storage.congestion_control.**', 'logsvc does not pace requests', 'leave it out'),
  warn(
    'common.compactor_grpc_address',
    'the delete API is forwarded over HTTP to common.compactor_address; queriers read delete ' +
      'requests from the object store, where the compactor keeps them',
  ),
  warn('index_gateway.ring.num_tokens', 'only changes how tenants spread over the gateways'),
  warn('common.ring.num_tokens', 'each ring has its own number of tokens'),
  refuse(
    'common.ring.replication_factor',
    'not copied to the rings yet',
    'use common.replication_factor',
  ),

  // chunk_store_config and query_range caches.
  warn('chunk_store_config.**', CACHE_REASON),
  warn('query_range.*results_cache.**', CACHE_REASON),
  warn('query_range.cache_*_results', CACHE_REASON),
  warn('query_range.instant_metric_query_split_align', 'only changes how instant queries are cut'),
  warn('query_range.shard_aggregations', 'only changes how metric queries are sharded'),
  warn('query_range.max_retries', 'retries of failed sub-queries; logsvc does not retry'),

  // Ruler.
  ...['gcs', 'azure', 'swift', 'cos', 'bos', 'alibabacloud'].map((name) =>
    refuse(`ruler.storage.${name}.**`, NO_BACKEND(name), 'use local, filesystem or s3'),
  ),
  refuse(
    'ruler_storage.**',
    'logsvc reads rules through ruler.storage',
    'configure ruler.storage (local, filesystem or s3)',
  ),
  warn('ruler.rule_path', 'logsvc evaluates rules from memory, not a temporary directory'),
  warn('ruler.wal.**', "the ruler's remote write needs no WAL in logsvc"),
  warn('ruler.wal_cleaner.**', "the ruler's remote write needs no WAL in logsvc"),
  warn('ruler.remote_write.config_refresh_period', 'clients are built at start'),
  refuse('ruler.remote_write.client', 'deprecated in Loki', 'use ruler.remote_write.clients'),
  warn('ruler.alertmanager_refresh_interval', 'Alertmanager URLs are used as given'),
  warn('ruler.enable_alertmanager_v2', 'logsvc always sends to the v2 API'),
  warn('ruler.flush_period', 'rule groups are evaluated as they are loaded'),
  warn('ruler.query_stats_enabled', 'query statistics logging'),
  warn('ruler.search_pending_for', 'ring tuning'),
  warn('ruler.sharding_algo', 'rules are sharded by group'),
  warn('ruler.sharding_strategy', 'rules are sharded by group'),
  refuse(
    'ruler.**',
    'changes which rules run or what they send, and logsvc does not have it',
    'leave it out (see docs/rules.md)',
  ),

  // Components logsvc does not have.
  ...refuseEach(
    [
      'kafka_config.**',
      'ingester.kafka_ingestion.**',
      'block_builder.**',
      'block_scheduler.**',
      'distributor.kafka_writes_enabled',
      'distributor.ingester_writes_enabled',
      'querier.query_partition_ingesters',
      'limits_config.ingestion_partitions_tenant_shard_size',
    ],
    KAFKA_REASON,
    KAFKA_INSTEAD,
  ),
  refuse('dataobj_explorer.**', 'logsvc has no data objects', 'leave it out'),
  ...warnEach(
    ['bloom_build.**', 'bloom_gateway.**', 'limits_config.bloom_*'],
    'logsvc has no bloom filters; queries read the chunks, answers are the same',
  ),
  refuse(
    'table_manager.retention_*',
    'the table manager does not exist in logsvc, so nothing would be deleted',
    'use compactor.retention_enabled with limits_config.retention_period',
  ),
  warn('table_manager.**', 'logsvc has no table manager (TSDB on object stores needs no tables)'),

  // Ingester.
  warn('ingester.autoforget_unhealthy', 'ring maintenance; unhealthy members are left to expire'),
  warn('ingester.flush_op_backoff.**', 'retry tuning: logsvc uses its own settings'),
  warn('ingester.index_shards', 'in-memory index tuning'),
  warn('ingester.max_dropped_streams', 'debug output'),
  warn('ingester.owned_streams_check_interval', 'ring tuning'),
  warn('ingester.shutdown_marker_path', 'logsvc writes no shutdown marker'),
  warn('ingester.sync_period', 'chunk cut alignment across replicas; answers are the same'),
  warn(
    'ingester.sync_min_utilization',
    'chunk cut alignment across replicas; answers are the same',
  ),
  warn('ingester.query_store_max_look_back_period', 'queriers read the store for the whole range'),
  warn('ingester.wal.replay_memory_ceiling', 'the WAL is replayed in full before ready'),
  warn('ingester.lifecycler.observe_period', 'token conflicts are resolved by the ring'),
  refuse(
    'ingester.lifecycler.ring.excluded_zones',
    'writes would still go to the excluded zones',
    'leave it out',
  ),
  warn('ingester.lifecycler.heartbeat_timeout', 'the ring uses lifecycler.ring.heartbeat_timeout'),

  // Distributor.
  warn('distributor.push_worker_count', 'push handling tuning'),
  warn('distributor.rate_store.**', 'logsvc does not shard streams'),
  warn('distributor.write_failures_logging.**', 'logging of failed pushes'),
  refuse(
    'distributor.otlp_config.**',
    'changes which OTLP attributes become labels',
    'leave it out (Loki’s default attributes are used)',
  ),

  // Query path.
  warn(
    'frontend.encoding',
    'logsvc passes sub-queries between its own processes in its own format',
  ),
  warn('frontend.graceful_shutdown_timeout', 'the frontend stops with the server'),
  warn('frontend.instance_*', INTERFACES),
  warn('frontend.log_query_request_headers', 'query logging'),
  warn('frontend.querier_forget_delay', 'queue tuning'),
  warn('frontend.scheduler_dns_lookup_period', 'addresses are used as given'),
  warn('frontend.scheduler_worker_concurrency', 'queue tuning'),
  warn('frontend.query_stats_enabled', 'query statistics logging'),
  refuse('frontend.max_body_size', 'logsvc does not limit query request bodies', 'leave it out'),
  refuse(
    'frontend.downstream_url',
    'the frontend sends queries to queriers only',
    'run queriers (frontend_worker)',
  ),
  refuse('frontend.tail_proxy_url', 'the frontend does not proxy tails', 'send tails to a querier'),
  warn('frontend_worker.dns_lookup_duration', 'addresses are used as given'),
  warn('frontend_worker.**', GRPC_CLIENT),
  warn('query_scheduler.querier_forget_delay', 'queue tuning'),
  warn('querier.extra_query_delay', 'logsvc does not send duplicate queries to ingesters'),
  warn('querier.engine.max_count_min_sketch_heap_size', 'approximate topk is not used'),
  warn('querier.engine.max_look_back_period', 'instant query look-back tuning'),
  refuse(
    'querier.per_request_limits_enabled',
    'limits in request headers are not read',
    'set the limits per tenant in runtime overrides',
  ),
  warn('compactor.apply_retention_interval', 'retention runs on every compaction'),
  warn('compactor.delete_batch_size', 'deletion tuning'),
  warn('compactor.max_compaction_parallelism', 'compaction tuning'),
  warn('compactor.retention_backoff_config.**', 'retry tuning'),
  warn('compactor.retention_table_timeout', 'compaction tuning'),
  warn('compactor.upload_parallelism', 'compaction tuning'),
  warn('compactor.retention_delete_worker_count', 'deletion tuning'),
  refuse('compactor.skip_latest_n_tables', 'logsvc compacts every table', 'leave it out'),
  refuse('compactor.tables_to_compact', 'logsvc compacts every table', 'leave it out'),
  refuse(
    'compactor.delete_request_store_key_prefix',
    'delete requests are kept at a fixed place',
    'leave it out',
  ),

  // Pattern ingester.
  warn(
    'pattern_ingester.metric_aggregation.**',
    'logsvc writes no aggregated metric streams; Drilldown computes them from the logs',
  ),

  // schema_config periods.
  warn('schema_config.configs[].row_shards', 'a BoltDB index setting'),
  warn('schema_config.configs[].index.tags', 'DynamoDB/Bigtable table tags'),
  warn('schema_config.configs[].chunks.**', 'chunk tables are for BoltDB stores'),
  refuse(
    'schema_config.configs[].index.path_prefix',
    'logsvc keeps index files under index/',
    'leave it out',
  ),

  // Limits.
  warn('limits_config.metric_aggregation_enabled', 'logsvc writes no aggregated metric streams'),
  warn('limits_config.per_tenant_override_config', 'use runtime_config.file'),
  warn('limits_config.per_tenant_override_period', 'use runtime_config.period'),
  warn(
    'limits_config.query_ready_index_num_days',
    'index files are fetched when a query needs them',
  ),
  warn('limits_config.ruler_tenant_shard_size', 'rules are sharded over every ruler'),
  warn('limits_config.index_gateway_shard_size', 'tenants are sharded over every index gateway'),
  warn('limits_config.tsdb_precompute_chunks', 'index read tuning'),
  warn('limits_config.tsdb_sharding_strategy', 'logsvc shards by bytes'),
  warn(
    'limits_config.shard_streams.**',
    'logsvc does not shard streams (no `__stream_shard__` label)',
  ),
  warn('limits_config.max_metadata_cache_freshness', CACHE_REASON),
  warn('limits_config.max_stats_cache_freshness', CACHE_REASON),
  warn('limits_config.use_owned_stream_count', 'stream limits count every stream of the ingester'),
  warn('limits_config.min_sharding_lookback', 'only changes how queries are cut'),
  warn('limits_config.shard_aggregations', 'only changes how metric queries are sharded'),
  warn(
    'limits_config.max_chunks_per_query',
    'Loki 3.4 does not enforce it either: its store reads the limit as 0',
  ),
  warn(
    'limits_config.cardinality_limit',
    "a limit of Loki's BoltDB index cache; the TSDB index never applies it",
  ),
  warn('limits_config.max_queriers_per_tenant', 'only changes how queries spread over queriers'),
  warn('limits_config.max_query_capacity', 'only changes how queries spread over queriers'),
  ...refuseEach(
    ['limits_config.ruler_remote_write_*', 'limits_config.ruler_remote_write_*.**'],
    "Loki's deprecated per-tenant remote write",
    'use ruler.remote_write.clients',
  ),
  refuse(
    'limits_config.s3_sse_*',
    'logsvc does not ask S3 for server-side encryption',
    'use bucket encryption',
  ),
  refuse(
    'limits_config.discover_generic_fields.**',
    'changes what is stored as structured metadata',
    'leave it out',
  ),
  refuse(
    'limits_config.otlp_config.**',
    'changes which OTLP attributes become labels',
    'leave it out',
  ),
  refuse(
    'limits_config.*',
    'a limit logsvc does not enforce; accepting it would let through what it should stop',
    'leave it out',
  ),
];

type Matcher = (segments: readonly string[]) => boolean;

function compile(pattern: string): Matcher {
  const parts = pattern.split('.');
  const glob = (p: string) =>
    new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.]*')}$`);
  const matchers = parts.map((p) => (p === '**' ? undefined : glob(p)));
  const match = (i: number, segments: readonly string[], j: number): boolean => {
    if (i === parts.length) return j === segments.length;
    const m = matchers[i];
    if (m === undefined) {
      for (let k = j; k <= segments.length; k++) if (match(i + 1, segments, k)) return true;
      return false;
    }
    return j < segments.length && m.test(segments[j]) && match(i + 1, segments, j + 1);
  };
  return (segments) => match(0, segments, 0);
}

const COMPILED = KEY_RULES.map((rule) => ({ rule, test: compile(rule.pattern) }));

/** The first rule that names `path` (list elements written `name[]`), if any. */
export function ruleFor(path: string): KeyRule | undefined {
  const segments = path.split('.');
  return COMPILED.find(({ test }) => test(segments))?.rule;
}
