import { z } from 'zod';
import { bool, str, flag } from './fields';
import { commonSection } from './sections/common';
import {
  compactorSection,
  distributorSection,
  frontendSection,
  frontendWorkerSection,
  indexGatewaySection,
  ingesterClientSection,
  patternIngesterSection,
  querierSection,
  queryRangeSection,
  querySchedulerSection,
  rulerSection,
  runtimeConfigSection,
  uiSection,
} from './sections/components';
import { ingesterSection } from './sections/ingester';
import { limitsSection } from './sections/limits';
import { serverSection } from './sections/server';
import { chunkStoreSection, schemaConfigSection, storageSection } from './sections/storage';

/** The whole configuration file, with Loki's YAML key names. */
export const configSchema = z.strictObject({
  // Comma-separated list of components to run; see the server's targets table.
  target: flag('target', str('all')),
  auth_enabled: flag('auth.enabled', bool(true)),
  server: serverSection,
  common: commonSection,
  distributor: distributorSection,
  ingester: ingesterSection,
  ingester_client: ingesterClientSection,
  querier: querierSection,
  query_range: queryRangeSection,
  frontend: frontendSection,
  frontend_worker: frontendWorkerSection,
  query_scheduler: querySchedulerSection,
  ruler: rulerSection,
  compactor: compactorSection,
  index_gateway: indexGatewaySection,
  pattern_ingester: patternIngesterSection,
  storage_config: storageSection,
  chunk_store_config: chunkStoreSection,
  schema_config: schemaConfigSection,
  limits_config: limitsSection,
  runtime_config: runtimeConfigSection,
  ui: uiSection,
});

/** A complete, validated configuration. Durations are milliseconds, sizes are bytes. */
export type Config = z.output<typeof configSchema>;
export type ServerConfig = Config['server'];
export type CommonConfig = Config['common'];
export type IngesterConfig = Config['ingester'];
export type StorageConfig = Config['storage_config'];
export type SchemaConfig = Config['schema_config'];
export type RulerConfig = Config['ruler'];
export type CompactorConfig = Config['compactor'];
export type QuerierConfig = Config['querier'];
export type QueryRangeConfig = Config['query_range'];
export type FrontendConfig = Config['frontend'];
export type FrontendWorkerConfig = Config['frontend_worker'];
export type QuerySchedulerConfig = Config['query_scheduler'];
export type PatternIngesterConfig = Config['pattern_ingester'];
export type RuntimeConfigConfig = Config['runtime_config'];
export type DistributorConfig = Config['distributor'];
export type LimitsConfig = Config['limits_config'];
export type IndexGatewayConfig = Config['index_gateway'];
export type ServerTlsConfig = Config['server']['grpc_tls_config'];
export type GrpcClientTlsConfig = Config['ingester_client']['grpc_client_config'];
