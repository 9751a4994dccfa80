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
export {
  parseConfig,
  parseConfigReport,
  defaultConfig,
  type KeyWarning,
  type ParsedConfig,
} from './parse';
export { validateConfig } from './validate';
export { grpcClientTlsConfigs } from './tls-configs';
export { CLIENT_AUTH_TYPES } from './sections/tls';
export { diffConfig } from './diff';
export { renderConfigYaml } from './render';
export { expandEnv } from './expand-env';
export { FLAG_TABLE, type FlagKind, type FlagSpec } from './flag-table';
export { parseArgs, type ParsedArgs, type FlagSetting } from './flags';
export { loadConfig, loadConfigReport, type LoadOptions } from './load';
export {
  EVERY_TENANT,
  Overrides,
  parseRuntimeConfig,
  type OverridesOptions,
  type TenantOverrides,
} from './overrides';
export { DEFAULT_CONFIG, DEFAULT_LIMITS } from './defaults';
export { NOT_WIRED, UNSUPPORTED_KEYS } from './unsupported';
export { KEY_RULES, ruleFor, type KeyClass, type KeyRule } from './key-classes';
export { classify, keyTable, renderKeyTable, type KeyRow } from './key-table';
export { LOKI_KEYS, LOKI_REFERENCE_VERSION, type ReferenceKey } from './loki-reference';
export {
  drilldownLimits,
  type DrilldownLimits,
  type DrilldownLimitsOptions,
} from './drilldown-limits';
