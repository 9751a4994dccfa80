import { z } from 'zod';
import { bool, duration, int, oneOf, section, str, flag } from '../fields';
import { grpcClientSection } from './tls';

/** Loki's `aws_storage_config` (S3 part), with flags `-<prefix>s3.*`. */
export function awsSection(prefix: string) {
  return section({
    // Loki's URL form `s3://<key>:<secret>@<region or host>/<bucket>` (see object-store-urls.ts).
    s3: flag(`${prefix}s3.url`, str('')),
    endpoint: flag(`${prefix}s3.endpoint`, str('')),
    region: flag(`${prefix}s3.region`, str('')),
    bucketnames: flag(`${prefix}s3.buckets`, str('')),
    access_key_id: flag(`${prefix}s3.access-key-id`, str('')),
    secret_access_key: flag(`${prefix}s3.secret-access-key`, str('')),
    s3forcepathstyle: flag(`${prefix}s3.force-path-style`, bool(false)),
    insecure: flag(`${prefix}s3.insecure`, bool(false)),
  });
}

/** Loki's `azure_storage_config`, with flags `-<prefix>azure.*`. */
export function azureSection(prefix: string) {
  const f = `${prefix}azure.`;
  return section({
    environment: flag(
      `${f}environment`,
      oneOf(
        ['AzureGlobal', 'AzureChinaCloud', 'AzureGermanCloud', 'AzureUSGovernment'],
        'AzureGlobal',
      ),
    ),
    account_name: flag(`${f}account-name`, str('')),
    account_key: flag(`${f}account-key`, str('')),
    // Wins over account_name, account_key and endpoint_suffix (also how Azurite is reached).
    connection_string: flag(`${f}connection-string`, str('')),
    container_name: flag(`${f}container-name`, str('loki')),
    // Empty: the environment's suffix (blob.core.windows.net for AzureGlobal).
    endpoint_suffix: flag(`${f}endpoint-suffix`, str('')),
    // 0: the client's own timeout.
    request_timeout: flag(`${f}request-timeout`, duration(0)),
    max_retries: flag(`${f}max-retries`, int(5)),
    min_retry_delay: flag(`${f}min-retry-delay`, duration(10)),
    max_retry_delay: flag(`${f}max-retry-delay`, duration(500)),
  });
}

/** `storage_config`: object store clients (filesystem, S3, Azure) and the TSDB index directories. */
export const storageSection = section({
  filesystem: section({
    // Empty means `<common.path_prefix>/chunks`.
    directory: flag('local.chunk-directory', str('')),
  }),
  aws: awsSection(''),
  azure: azureSection(''),
  tsdb_shipper: section({
    // Empty means `<common.path_prefix>/tsdb-index` and `<common.path_prefix>/tsdb-cache`.
    active_index_directory: flag('tsdb.shipper.active-index-directory', str('')),
    cache_location: flag('tsdb.shipper.cache-location', str('')),
    index_gateway_client: section({
      // `host:port` of the index gateway queriers ask in `simple` mode; empty: none.
      server_address: flag('tsdb.shipper.index-gateway-client.server-address', str('')),
      grpc_client_config: grpcClientSection('tsdb.shipper.index-gateway-client.grpc'),
    }),
  }),
});

/** `chunk_store_config`: the cache of chunk bytes that queries read through. */
export const chunkStoreSection = section({
  chunk_cache_config: section({
    embedded_cache: section({
      // On by default, as Loki turns it on when no other chunk cache is configured. Each query
      // worker thread holds its own cache of this size, beside the main thread's.
      enabled: flag('store.chunks-cache.embedded-cache.enabled', bool(true)),
      max_size_mb: flag('store.chunks-cache.embedded-cache.max-size-mb', int(100)),
      max_size_items: flag('store.chunks-cache.embedded-cache.max-size-items', int(0)),
      ttl: flag('store.chunks-cache.embedded-cache.ttl', duration(3_600_000)),
    }),
  }),
});

const NO_INDEX = (name: string) =>
  `not supported by logsvc: logsvc has no ${name} index (only tsdb); instead: add a period ` +
  'from a later date with store: tsdb and schema: v13 (older data stays readable by Loki only)';

const REFUSED_INDEX_STORES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'boltdb-shipper',
    'boltdb',
    'aws',
    'aws-dynamo',
    'bigtable',
    'bigtable-hashed',
    'cassandra',
    'gcp',
    'gcp-columnkey',
    'grpc-store',
  ].map((name) => [name, NO_INDEX(name)]),
);

const REFUSED_SCHEMAS: Readonly<Record<string, string>> = Object.fromEntries(
  ['v9', 'v10', 'v11', 'v12'].map((name) => [
    name,
    `not supported by logsvc: logsvc reads and writes schema v13 only; instead: add a period ` +
      'from a later date with schema: v13',
  ]),
);

const REFUSED_OBJECT_STORES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'gcs',
    'swift',
    'cos',
    'bos',
    'alibabacloud',
    'bigtable',
    'cassandra',
    'grpc-store',
    'inmemory',
  ].map((name) => [
    name,
    `not supported by logsvc: logsvc has no ${name} object store client; instead: use ` +
      'filesystem, s3 (or an S3-compatible gateway) or azure',
  ]),
);

/** One period of `schema_config.configs`. */
export const periodConfig = z.strictObject({
  from: str(''),
  store: oneOf(['tsdb'], 'tsdb', REFUSED_INDEX_STORES),
  object_store: oneOf(['filesystem', 's3', 'aws', 'azure'], 'filesystem', REFUSED_OBJECT_STORES),
  schema: oneOf(['v13'], 'v13', REFUSED_SCHEMAS),
  /**
   * logsvc's own key: the chunk format flushes of this period write. `blocks` (what a Loki
   * config's periods get) is the row format; `columnar` adds per-column codecs, block statistics
   * and token filters (docs/storage.md). Readers take either in any period.
   */
  chunk_format: oneOf(['blocks', 'columnar'], 'blocks'),
  index: section({
    prefix: str('index_'),
    period: duration(24 * 3600_000),
  }),
});

export type PeriodConfig = z.output<typeof periodConfig>;

/**
 * `schema_config`. Loki requires one; logsvc defaults to a single TSDB v13 period on the
 * filesystem so that a bare `npm start` works.
 */
export const schemaConfigSection = section({
  configs: z.array(periodConfig).default(() => [
    {
      from: '2020-10-24',
      store: 'tsdb' as const,
      object_store: 'filesystem' as const,
      schema: 'v13' as const,
      // Safe as a default: readers tell the formats apart by the chunk's version byte.
      chunk_format: 'columnar' as const,
      index: { prefix: 'index_', period: 24 * 3600_000 },
    },
  ]),
});
