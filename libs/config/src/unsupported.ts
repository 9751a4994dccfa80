// Schema keys that logsvc accepts (so that Loki config files and `/config` output load) but
// does not act on. Each has a class in key-classes.ts: `warn` keys are logged at start when
// written; `refused` keys stop start-up when they change something (a value other than the
// default, and other than what `common` copies in). Wiring a setting means removing it here.
import { isDeepStrictEqual } from 'node:util';
import { ruleFor } from './key-classes';
import { refusal } from './refusal';

export const NOT_WIRED: ReadonlySet<string> = new Set([
  'common.instance_interface_names',
  'common.compactor_grpc_address',
  'common.ring.instance_interface_names',
  'common.ring.instance_enable_ipv6',
  'common.ring.num_tokens',
  'common.ring.replication_factor',
  'ingester.lifecycler.ring.excluded_zones',
  'ingester.lifecycler.heartbeat_timeout',
  'ingester.lifecycler.observe_period',
  'ingester.lifecycler.interface_names',
  'ingester.lifecycler.enable_inet6',
  'distributor.ring.instance_interface_names',
  'distributor.ring.instance_enable_ipv6',
  'index_gateway.ring.instance_interface_names',
  'index_gateway.ring.instance_enable_ipv6',
  'index_gateway.ring.num_tokens',
  'query_scheduler.scheduler_ring.instance_interface_names',
  'query_scheduler.scheduler_ring.instance_enable_ipv6',
  'server.http_server_write_timeout',
  'server.log_request_headers',
  'server.http_tls_config.cert_file',
  'server.http_tls_config.key_file',
  'server.http_tls_config.client_auth_type',
  'server.http_tls_config.client_ca_file',
  'ingester.query_store_max_look_back_period',
  'ingester.wal.replay_memory_ceiling',
  'querier.extra_query_delay',
  'querier.per_request_limits_enabled',
  'querier.engine.max_look_back_period',
  'query_range.max_retries',
  'query_range.results_cache.cache.default_validity',
  'query_range.results_cache.cache.memcached_client.addresses',
  'query_range.results_cache.cache.memcached_client.host',
  'query_range.results_cache.cache.memcached_client.service',
  'query_range.results_cache.cache.memcached_client.timeout',
  'query_range.results_cache.compression',
  'frontend.query_stats_enabled',
  'query_scheduler.querier_forget_delay',
  'frontend_worker.dns_lookup_duration',
  'ruler.rule_path',
  'compactor.retention_delete_worker_count',
  'storage_config.tsdb_shipper.active_index_directory',
  'storage_config.tsdb_shipper.cache_location',
  ...[
    'increment_duplicate_timestamp',
    'use_owned_stream_count',
    'max_chunks_per_query',
    'cardinality_limit',
    'max_metadata_cache_freshness',
    'max_stats_cache_freshness',
    'max_queriers_per_tenant',
    'max_query_capacity',
    'min_sharding_lookback',
    'shard_aggregations',
  ].map((key) => `limits_config.${key}`),
]);

/** The NOT_WIRED keys that stop start-up when they change something. */
export const UNSUPPORTED_KEYS: readonly string[] = [...NOT_WIRED].filter(
  (key) => ruleFor(key)?.class !== 'warn',
);

/** A copy of a raw config document without the unsupported keys. */
export function withoutUnsupportedKeys(doc: unknown): unknown {
  const copy = structuredClone(doc);
  for (const key of UNSUPPORTED_KEYS) {
    const keys = key.split('.');
    const parent = valueAt(copy, keys.slice(0, -1).join('.'));
    if (parent !== null && typeof parent === 'object') {
      delete (parent as Record<string, unknown>)[keys[keys.length - 1]];
    }
  }
  return copy;
}

function valueAt(doc: unknown, dotted: string): unknown {
  let node = doc;
  for (const key of dotted.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The `config error: <key>: not supported by logsvc: ...` lines for every refused key whose value
 * in `config` differs from its value in `defaults` (both complete configs, or both sections
 * when `section` names the section, as for per-tenant overrides; `shownAs` names the key).
 */
export function unsupportedSettings(
  config: unknown,
  defaults: unknown,
  errorPrefix = 'config error',
  section = '',
  shownAs = (key: string) => key,
): string[] {
  const problems: string[] = [];
  for (const key of UNSUPPORTED_KEYS) {
    if (section !== '' && !key.startsWith(`${section}.`)) continue;
    const path = section === '' ? key : key.slice(section.length + 1);
    if (!isDeepStrictEqual(valueAt(config, path), valueAt(defaults, path))) {
      const rule = ruleFor(key);
      problems.push(`${errorPrefix}: ${shownAs(key)}: ${refusal(rule?.reason, rule?.instead)}`);
    }
  }
  return problems;
}
