/** What the generated Loki config needs to know. */
export interface LokiConfigOptions {
  readonly dataDir: string;
  readonly httpPort: number;
  readonly grpcPort: number;
  readonly wal: boolean;
}

/**
 * A single-binary (`-target=all`) Loki 3.4 config for the benchmarks: 127.0.0.1 only, auth on
 * (the benches send X-Scope-OrgID), filesystem store with TSDB v13, the WAL as asked, and the
 * same limits lifted as logsvc's LIFTED_LIMITS (ingestion rate, per-stream rate, stream count)
 * plus the query limits the benches' queries would hit. Readiness delays are zeroed so the
 * bench does not wait 15 s for /ready. Everything else is Loki's default, so the comparison is
 * with Loki as people run it.
 */
export function lokiConfigYaml(o: LokiConfigOptions): string {
  const d = o.dataDir;
  return `auth_enabled: true
server:
  http_listen_address: 127.0.0.1
  http_listen_port: ${o.httpPort}
  grpc_listen_address: 127.0.0.1
  grpc_listen_port: ${o.grpcPort}
  log_level: warn
  http_server_read_timeout: 5m
  http_server_write_timeout: 5m
common:
  instance_addr: 127.0.0.1
  path_prefix: ${d}
  replication_factor: 1
  ring:
    instance_addr: 127.0.0.1
    kvstore:
      store: inmemory
  storage:
    filesystem:
      chunks_directory: ${d}/chunks
      rules_directory: ${d}/rules
ingester:
  lifecycler:
    min_ready_duration: 0s
    final_sleep: 0s
  wal:
    enabled: ${o.wal}
    dir: ${d}/wal
schema_config:
  configs:
    - from: 2020-10-24
      store: tsdb
      object_store: filesystem
      schema: v13
      index:
        prefix: index_
        period: 24h
limits_config:
  allow_structured_metadata: true
  volume_enabled: true
  reject_old_samples: false
  ingestion_rate_mb: 1000000
  ingestion_burst_size_mb: 1000000
  per_stream_rate_limit: 1GB
  per_stream_rate_limit_burst: 1GB
  max_global_streams_per_user: 1000000
  max_streams_per_user: 0
  max_query_series: 100000
  max_entries_limit_per_query: 100000
  query_timeout: 5m
query_scheduler:
  max_outstanding_requests_per_tenant: 2048
frontend:
  encoding: json
  address: 127.0.0.1
analytics:
  reporting_enabled: false
`;
}
