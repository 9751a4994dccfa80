import type { Limits, LogServiceSpec } from '@logsvc/operator-api';
import { stringify } from 'yaml';
import { RULES_DIR } from './rules';
import { tlsConfig } from './tls';

/** The runtime config's entry for every tenant (logsvc's `Overrides`). */
export const EVERY_TENANT = '*';

// logsvc's configuration for a LogService, with Loki's keys (docs/configuration.md). One file
// for every component (each pod picks its part with -target), with `${POD_IP}` and `${POD_NAME}`
// expanded at start (-config.expand-env=true) so each pod advertises itself in the rings.

export const HTTP_PORT = 3100;
export const GRPC_PORT = 9095;
export const CONFIG_DIR = '/etc/logsvc';
export const CONFIG_FILE = `${CONFIG_DIR}/config.yaml`;
export const RUNTIME_FILE = `${CONFIG_DIR}/runtime.yaml`;
/** Each pod's own data: a PersistentVolumeClaim for stateful pods, an emptyDir otherwise. */
export const DATA_DIR = '/var/logsvc';
/** The shared ReadWriteMany volume of a multi-pod filesystem store. */
export const SHARED_DIR = '/var/logsvc-shared';
export const ETCD_CLIENT_PORT = 2379;
export const ETCD_PEER_PORT = 2380;

/** `limits_config` key of each schema field. */
const LIMIT_KEYS: Readonly<Record<keyof Limits, string>> = {
  ingestionRateMB: 'ingestion_rate_mb',
  ingestionBurstSizeMB: 'ingestion_burst_size_mb',
  maxLineSize: 'max_line_size',
  maxLabelNamesPerSeries: 'max_label_names_per_series',
  maxStreamsPerUser: 'max_streams_per_user',
  maxGlobalStreamsPerUser: 'max_global_streams_per_user',
  perStreamRateLimit: 'per_stream_rate_limit',
  perStreamRateLimitBurst: 'per_stream_rate_limit_burst',
  rejectOldSamples: 'reject_old_samples',
  rejectOldSamplesMaxAge: 'reject_old_samples_max_age',
  maxQueryLength: 'max_query_length',
  maxQueryLookback: 'max_query_lookback',
  maxQuerySeries: 'max_query_series',
  maxEntriesLimitPerQuery: 'max_entries_limit_per_query',
  queryTimeout: 'query_timeout',
  retentionPeriod: 'retention_period',
};

/**
 * Global limits that stay in config.yaml (and so roll the pods): `query_timeout` also bounds the
 * gRPC streams and the frontend's queue, which are set up at start.
 */
export const STARTUP_LIMITS: ReadonlySet<keyof Limits> = new Set(['queryTimeout']);

/** Limits in `limits_config` form, only the ones that are set (and pass `keep`). */
export function limitsConfig(
  limits: Limits | undefined,
  keep: (field: keyof Limits) => boolean = () => true,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(limits ?? {})) {
    if (value !== undefined && keep(field as keyof Limits))
      out[LIMIT_KEYS[field as keyof Limits]] = value;
  }
  return out;
}

/** The etcd endpoints of the ring (empty for the single binary's in-memory ring). */
export function etcdEndpoints(name: string, spec: LogServiceSpec): string[] {
  if (spec.mode === 'SingleBinary') return [];
  if (spec.ring.store === 'etcd') return [...(spec.ring.etcdEndpoints ?? [])];
  return [`${name}-etcd:${ETCD_CLIENT_PORT}`];
}

function storageConfig(spec: LogServiceSpec): Record<string, unknown> {
  if (spec.storage.type === 's3') {
    const s3 = spec.storage.s3!;
    return {
      aws: {
        bucketnames: s3.bucket,
        ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
        ...(s3.region ? { region: s3.region } : {}),
        access_key_id: '${S3_ACCESS_KEY_ID}',
        secret_access_key: '${S3_SECRET_ACCESS_KEY}',
        s3forcepathstyle: s3.forcePathStyle,
        insecure: s3.insecure,
      },
    };
  }
  const root = spec.mode === 'SingleBinary' ? DATA_DIR : SHARED_DIR;
  return { filesystem: { directory: `${root}/chunks` } };
}

function rulerConfig(spec: LogServiceSpec): Record<string, unknown> {
  const storage =
    spec.rules !== undefined
      ? { type: 'local', local: { directory: RULES_DIR } }
      : spec.storage.type === 's3'
        ? { type: 's3', s3: storageConfig(spec).aws as Record<string, unknown> }
        : spec.mode === 'SingleBinary'
          ? { type: 'local', local: { directory: `${DATA_DIR}/rules` } }
          : { type: 'filesystem', filesystem: { directory: `${SHARED_DIR}/rules` } };
  return {
    storage,
    ...(spec.ruler.alertmanagerURL ? { alertmanager_url: spec.ruler.alertmanagerURL } : {}),
  };
}

/**
 * How frontends and queriers find each other: the schedulers (Microservices' own, the backend
 * pods' in SimpleScalable, as in Loki) through their ring on the same etcd; with no scheduler in
 * Microservices, the queriers pull from the frontend's Service (one frontend then: each querier
 * connects to one of them).
 */
function queryPathConfig(name: string, spec: LogServiceSpec): Record<string, unknown> {
  const c = spec.components;
  if (spec.mode === 'SimpleScalable') return { query_scheduler: { use_scheduler_ring: true } };
  if (spec.mode !== 'Microservices' || c.queryFrontend.replicas === 0) return {};
  if (c.queryScheduler.replicas > 0) return { query_scheduler: { use_scheduler_ring: true } };
  return { frontend_worker: { frontend_address: `${name}-query-frontend:${GRPC_PORT}` } };
}

/** The config file's document. */
export function configDocument(name: string, spec: LogServiceSpec): Record<string, unknown> {
  const multiPod = spec.mode !== 'SingleBinary';
  const zones = spec.zones ?? [];
  const common: Record<string, unknown> = { path_prefix: DATA_DIR };
  if (multiPod) {
    common.replication_factor = spec.replicationFactor;
    common.ring = {
      instance_addr: '${POD_IP}',
      instance_id: '${POD_NAME}',
      kvstore: { store: 'etcd', etcd: { endpoints: etcdEndpoints(name, spec) } },
      ...(zones.length > 0 ? { zone_awareness_enabled: true } : {}),
    };
  } else {
    common.replication_factor = 1;
  }
  const doc: Record<string, unknown> = {
    auth_enabled: spec.authEnabled,
    server: { http_listen_port: HTTP_PORT, grpc_listen_port: GRPC_PORT },
    common,
    ingester: {
      lifecycler: {
        // Loki's operator also leaves it at the 15s default; the rollout waits for /ready anyway.
        min_ready_duration: '15s',
      },
    },
    schema_config: {
      configs: [
        {
          from: '2020-10-24',
          store: 'tsdb',
          object_store: spec.storage.type,
          schema: 'v13',
          index: { prefix: 'index_', period: '24h' },
        },
      ],
    },
    storage_config: storageConfig(spec),
    compactor: {
      retention_enabled: spec.retention.enabled,
      ...(spec.retention.enabled ? { retention_delete_delay: spec.retention.deleteDelay } : {}),
    },
    ruler: rulerConfig(spec),
    ...queryPathConfig(name, spec),
    runtime_config: { file: RUNTIME_FILE },
    // The other global limits are in runtime.yaml, re-read without a restart.
    limits_config: limitsConfig(spec.limits.global, (field) => STARTUP_LIMITS.has(field)),
  };
  return mergeConfig(doc, tlsConfig(name, spec));
}

/** config.yaml. */
export function renderConfig(name: string, spec: LogServiceSpec): string {
  const doc = configDocument(name, spec);
  const merged = spec.configOverrides === undefined ? doc : mergeConfig(doc, spec.configOverrides);
  return stringify(merged, { lineWidth: 0 });
}

/**
 * runtime.yaml, re-read by logsvc without a restart: the global limits (but STARTUP_LIMITS) under
 * `*` (every tenant), then each tenant's own.
 */
export function renderRuntimeConfig(spec: LogServiceSpec): string {
  const overrides: Record<string, unknown> = {};
  const every = limitsConfig(spec.limits.global, (field) => !STARTUP_LIMITS.has(field));
  if (Object.keys(every).length > 0) overrides[EVERY_TENANT] = every;
  for (const [tenant, limits] of Object.entries(spec.limits.tenants ?? {}).sort(([a], [b]) =>
    a.localeCompare(b),
  ))
    overrides[tenant] = limitsConfig(limits);
  return stringify({ overrides }, { lineWidth: 0 });
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `over` merged into `base`: maps key by key, anything else replaced. */
export function mergeConfig(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] = isMap(out[key]) && isMap(value) ? mergeConfig(out[key], value) : value;
  return out;
}
