import { z } from 'zod';
import { bool, duration, int, oneOf, section, str, flag } from '../fields';
import { grpcClientSection } from './tls';

/** `storage_config`: object store clients (filesystem, S3) and the TSDB index directories. */
export const storageSection = section({
  filesystem: section({
    // Empty means `<common.path_prefix>/chunks`.
    directory: flag('local.chunk-directory', str('')),
  }),
  aws: section({
    endpoint: flag('s3.endpoint', str('')),
    region: flag('s3.region', str('')),
    bucketnames: flag('s3.buckets', str('')),
    access_key_id: flag('s3.access-key-id', str('')),
    secret_access_key: flag('s3.secret-access-key', str('')),
    s3forcepathstyle: flag('s3.force-path-style', bool(false)),
    insecure: flag('s3.insecure', bool(false)),
  }),
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

/** One period of `schema_config.configs`. */
export const periodConfig = z.strictObject({
  from: str(''),
  store: oneOf(['tsdb'], 'tsdb'),
  object_store: oneOf(['filesystem', 's3'], 'filesystem'),
  schema: oneOf(['v13'], 'v13'),
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
      index: { prefix: 'index_', period: 24 * 3600_000 },
    },
  ]),
});
