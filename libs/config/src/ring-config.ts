// Everything one ring member needs, read from a loaded config. `parseConfig` has already
// applied `common` to each component (apply-common.ts), so this only picks each ring's fields
// and fills what is left: the address, the port and the replication factor.
import type { Config } from './schema';
import type { KvStoreConfig, KvStoreName } from './sections/ring';

export type RingName =
  | 'ingester'
  | 'distributor'
  | 'index-gateway'
  | 'compactor'
  | 'ruler'
  | 'scheduler'
  | 'pattern-ingester';

export const RING_NAMES: readonly RingName[] = [
  'ingester',
  'distributor',
  'index-gateway',
  'compactor',
  'ruler',
  'scheduler',
  'pattern-ingester',
];

/** The KV key each ring is stored under (below `kvstore.prefix`), as in Loki. */
export const RING_KEYS: Readonly<Record<RingName, string>> = {
  ingester: 'ring',
  distributor: 'distributor',
  'index-gateway': 'index-gateway',
  compactor: 'compactor',
  ruler: 'rulers',
  scheduler: 'scheduler',
  'pattern-ingester': 'pattern-ring',
};

/**
 * The address advertised when nothing sets one. Loki takes the first private IPv4 address of
 * the host; logsvc uses loopback so that a cluster on one machine (and its tests) just works.
 */
export const DEFAULT_INSTANCE_ADDR = '127.0.0.1';

export interface EtcdClientConfig {
  endpoints: string[];
  dialTimeoutMs: number;
  maxRetries: number;
  tls: {
    enabled: boolean;
    certPath: string;
    keyPath: string;
    caPath: string;
    serverName: string;
    insecureSkipVerify: boolean;
  };
  username: string;
  password: string;
}

export interface RingKvConfig {
  store: KvStoreName;
  /** Prefix of the keys in the store, e.g. `collectors/`. */
  prefix: string;
  etcd: EtcdClientConfig;
}

export interface RingMemberConfig {
  ring: RingName;
  kvstore: RingKvConfig;
  /** The ring's key below `kvstore.prefix`. */
  key: string;
  instanceId: string;
  instanceAddr: string;
  instancePort: number;
  /** Availability zone; '' when none. */
  zone: string;
  zoneAwarenessEnabled: boolean;
  heartbeatPeriodMs: number;
  heartbeatTimeoutMs: number;
  replicationFactor: number;
  numTokens: number;
  /** '' when tokens are not kept across restarts. */
  tokensFilePath: string;
  joinAfterMs: number;
  minReadyDurationMs: number;
  finalSleepMs: number;
  unregisterOnShutdown: boolean;
  readinessCheckRingHealth: boolean;
}

/** True when `-target` runs the single binary (`all`). */
export function isSingleBinary(target: string): boolean {
  return target.split(',').some((name) => name.trim() === 'all');
}

/**
 * `common.replication_factor` when set; otherwise 1 for `-target=all` (one process holds all
 * data) and 3 for any other target, Loki's default.
 */
export function effectiveReplicationFactor(config: Pick<Config, 'common' | 'target'>): number {
  if (config.common.replication_factor > 0) return config.common.replication_factor;
  return isSingleBinary(config.target) ? 1 : 3;
}

function kvConfig(kv: KvStoreConfig): RingKvConfig {
  const etcd = kv.etcd;
  return {
    store: kv.store,
    prefix: kv.prefix,
    etcd: {
      endpoints: [...etcd.endpoints],
      dialTimeoutMs: etcd.dial_timeout,
      maxRetries: etcd.max_retries,
      tls: {
        enabled: etcd.tls_enabled,
        certPath: etcd.tls_cert_path,
        keyPath: etcd.tls_key_path,
        caPath: etcd.tls_ca_path,
        serverName: etcd.tls_server_name,
        insecureSkipVerify: etcd.tls_insecure_skip_verify,
      },
      username: etcd.username,
      password: etcd.password,
    },
  };
}

/** The fields that differ between rings, before the shared defaults are filled. */
type RingFields = Omit<RingMemberConfig, 'ring' | 'key' | 'kvstore'> & { kv: KvStoreConfig };

/** What a member that only registers itself (Loki's BasicLifecycler) uses for lifecycle fields. */
const BASIC_LIFECYCLE = {
  joinAfterMs: 0,
  minReadyDurationMs: 0,
  finalSleepMs: 0,
  unregisterOnShutdown: true,
  readinessCheckRingHealth: false,
};

type LifecyclerConfig = Config['ingester']['lifecycler'];

function ingesterFields(l: LifecyclerConfig): RingFields {
  return {
    kv: l.ring.kvstore,
    instanceId: l.id,
    instanceAddr: l.address,
    instancePort: l.port,
    zone: l.availability_zone,
    zoneAwarenessEnabled: l.ring.zone_awareness_enabled,
    heartbeatPeriodMs: l.heartbeat_period,
    heartbeatTimeoutMs: l.ring.heartbeat_timeout,
    replicationFactor: l.ring.replication_factor,
    numTokens: l.num_tokens,
    tokensFilePath: l.tokens_file_path,
    joinAfterMs: l.join_after,
    minReadyDurationMs: l.min_ready_duration,
    finalSleepMs: l.final_sleep,
    unregisterOnShutdown: l.unregister_on_shutdown,
    readinessCheckRingHealth: l.readiness_check_ring_health,
  };
}

type BasicRing = Config['distributor']['ring'];
type LokiRing = Config['common']['ring'];

function basicFields(ring: BasicRing, replicationFactor: number, numTokens: number): RingFields {
  return {
    kv: ring.kvstore,
    instanceId: ring.instance_id,
    instanceAddr: ring.instance_addr,
    instancePort: ring.instance_port,
    zone: '',
    zoneAwarenessEnabled: false,
    heartbeatPeriodMs: ring.heartbeat_period,
    heartbeatTimeoutMs: ring.heartbeat_timeout,
    replicationFactor,
    numTokens,
    tokensFilePath: '',
    ...BASIC_LIFECYCLE,
  };
}

/** Rings of Loki's lokiring.RingConfig; `fixed` are the values Loki hard-codes for that ring. */
function lokiRingFields(
  ring: LokiRing,
  fixed: { replicationFactor?: number; numTokens?: number } = {},
): RingFields {
  return {
    ...basicFields(
      ring,
      fixed.replicationFactor ?? ring.replication_factor,
      fixed.numTokens ?? ring.num_tokens,
    ),
    zone: ring.instance_availability_zone,
    zoneAwarenessEnabled: ring.zone_awareness_enabled,
    tokensFilePath: ring.tokens_file_path,
  };
}

function fieldsOf(config: Config, ring: RingName): RingFields {
  switch (ring) {
    case 'ingester':
      return ingesterFields(config.ingester.lifecycler);
    case 'pattern-ingester':
      return ingesterFields(config.pattern_ingester.lifecycler);
    case 'distributor':
      // Distributors register to be counted (global rate limits): one token, no replication.
      return basicFields(config.distributor.ring, 1, 1);
    case 'index-gateway':
      return lokiRingFields(config.index_gateway.ring);
    case 'compactor':
      return lokiRingFields(config.compactor.compactor_ring, {
        replicationFactor: 1,
        numTokens: 1,
      });
    case 'ruler':
      // Each rule group is evaluated by exactly one ruler.
      return basicFields(config.ruler.ring, 1, config.ruler.ring.num_tokens);
    case 'scheduler':
      return lokiRingFields(config.query_scheduler.scheduler_ring, {
        replicationFactor: 2,
        numTokens: 1,
      });
  }
}

/**
 * The settings one member of `ring` runs with. `config` must come from `parseConfig` or
 * `loadConfig`, which apply Loki's precedence (the component's own setting, then `common.ring`,
 * then `common`); this fills an empty address with DEFAULT_INSTANCE_ADDR and a zero port with
 * `server.grpc_listen_port`.
 */
export function resolveRingConfig(config: Config, ring: RingName): RingMemberConfig {
  const { kv, ...fields } = fieldsOf(config, ring);
  return {
    ring,
    kvstore: kvConfig(kv),
    key: RING_KEYS[ring],
    ...fields,
    instanceAddr: fields.instanceAddr === '' ? DEFAULT_INSTANCE_ADDR : fields.instanceAddr,
    instancePort: fields.instancePort === 0 ? config.server.grpc_listen_port : fields.instancePort,
  };
}
