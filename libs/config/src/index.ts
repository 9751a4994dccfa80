export * from './errors';
export { parseDuration } from './duration';
export * from './schema';
export type { TenantLimits } from './sections/limits';
export { LOG_LEVELS, type LogLevel } from './sections/server';
export { CHUNK_ENCODINGS } from './sections/ingester';
export type { PeriodConfig } from './sections/storage';
export type { KvStoreConfig, KvStoreName, LokiRingConfig } from './sections/ring';
export { KV_STORES } from './sections/ring';
export {
  DEFAULT_INSTANCE_ADDR,
  RING_KEYS,
  RING_NAMES,
  effectiveReplicationFactor,
  isSingleBinary,
  resolveRingConfig,
  type EtcdClientConfig,
  type RingKvConfig,
  type RingMemberConfig,
  type RingName,
} from './ring-config';
export { SECRET_KEYS, maskSecrets, maskSecretsInYaml } from './secrets';
export { parseConfig, defaultConfig } from './parse';
export { validateConfig } from './validate';
export { grpcClientTlsConfigs } from './tls-configs';
export { CLIENT_AUTH_TYPES } from './sections/tls';
export { diffConfig } from './diff';
export { renderConfigYaml } from './render';
export { expandEnv } from './expand-env';
export { FLAG_TABLE, type FlagKind, type FlagSpec } from './flag-table';
export { parseArgs, type ParsedArgs, type FlagSetting } from './flags';
export { loadConfig, type LoadOptions } from './load';
export {
  Overrides,
  parseRuntimeConfig,
  type OverridesOptions,
  type TenantOverrides,
} from './overrides';
export { DEFAULT_CONFIG, DEFAULT_LIMITS } from './defaults';
export { UNSUPPORTED_KEYS } from './unsupported';
export {
  drilldownLimits,
  type DrilldownLimits,
  type DrilldownLimitsOptions,
} from './drilldown-limits';
