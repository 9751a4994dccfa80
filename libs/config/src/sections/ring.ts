// The ring blocks Loki repeats in several sections (dskit's kv.Config and etcd.Config, Loki's
// lokiring.RingConfig, the distributor's and ruler's trimmed copies, the ingester lifecycler),
// built per place because each place has its own flag names.
import { hostname } from 'node:os';
import { z } from 'zod';
import { bool, duration, flag, int, oneOf, section, str, stringList } from '../fields';

export const KV_STORES = ['inmemory', 'etcd'] as const;
export type KvStoreName = (typeof KV_STORES)[number];

const refusedStore = (name: string) =>
  `kvstore store ${name} is not supported by logsvc: use etcd (or inmemory for a single process)`;

/** Loki's other stores, refused with a message that names the alternative. */
const REFUSED_STORES: Readonly<Record<string, string>> = Object.fromEntries(
  ['memberlist', 'consul', 'multi'].map((name) => [name, refusedStore(name)]),
);

/**
 * `kvstore`. `flagPrefix` is what dskit's kv.Config gets ('' for the ingester, whose store flag
 * is then `-ring.store` and whose etcd flags are `-etcd.*`); `keyPrefix` the default `prefix`.
 */
export function kvStoreSection(flagPrefix: string, keyPrefix: string) {
  const storeFlags = flagPrefix === '' ? 'ring.' : flagPrefix;
  const etcd = `${flagPrefix}etcd.`;
  return section({
    store: flag(`${storeFlags}store`, oneOf(KV_STORES, 'inmemory', REFUSED_STORES)),
    prefix: flag(`${storeFlags}prefix`, str(keyPrefix)),
    etcd: section({
      endpoints: flag(`${etcd}endpoints`, stringList([])),
      dial_timeout: flag(`${etcd}dial-timeout`, duration(10_000)),
      max_retries: flag(`${etcd}max-retries`, int(10)),
      tls_enabled: flag(`${etcd}tls-enabled`, bool(false)),
      // dskit inlines its TLS client block here.
      tls_cert_path: flag(`${etcd}tls-cert-path`, str('')),
      tls_key_path: flag(`${etcd}tls-key-path`, str('')),
      tls_ca_path: flag(`${etcd}tls-ca-path`, str('')),
      tls_server_name: flag(`${etcd}tls-server-name`, str('')),
      tls_insecure_skip_verify: flag(`${etcd}tls-insecure-skip-verify`, bool(false)),
      username: flag(`${etcd}username`, str('')),
      password: flag(`${etcd}password`, str('')),
    }),
  });
}

/** Loki's default instance ID: the host name. */
export const DEFAULT_INSTANCE_ID = hostname();

/** The instance fields every ring block has, under `<prefix>ring.instance-*` flags. */
function instanceFields(ringFlags: string) {
  return {
    instance_id: flag(`${ringFlags}instance-id`, str(DEFAULT_INSTANCE_ID)),
    // Loki reads the address of these interfaces; logsvc accepts the key only (see unsupported.ts).
    instance_interface_names: flag(`${ringFlags}instance-interface-names`, stringList([])),
    // 0: server.grpc_listen_port.
    instance_port: flag(`${ringFlags}instance-port`, int(0)),
    instance_addr: flag(`${ringFlags}instance-addr`, str('')),
    instance_enable_ipv6: flag(`${ringFlags}instance-enable-ipv6`, bool(false)),
  };
}

export interface LokiRingOptions {
  numTokens?: number;
  replicationFactor?: number;
  /** The index gateway's replication factor flag is the bare `-replication-factor`. */
  replicationFactorFlag?: string;
}

/**
 * Loki's `lokiring.RingConfig` (`common.ring`, `index_gateway.ring`, `compactor.compactor_ring`,
 * `query_scheduler.scheduler_ring`), with flags `-<flagPrefix>ring.*`.
 */
export function lokiRingSection(flagPrefix: string, options: LokiRingOptions = {}) {
  const ring = `${flagPrefix}ring.`;
  return section({
    kvstore: kvStoreSection(ring, 'collectors/'),
    heartbeat_period: flag(`${ring}heartbeat-period`, duration(15_000)),
    heartbeat_timeout: flag(`${ring}heartbeat-timeout`, duration(60_000)),
    tokens_file_path: flag(`${ring}tokens-file-path`, str('')),
    zone_awareness_enabled: flag(`${ring}zone-awareness-enabled`, bool(false)),
    num_tokens: flag(`${ring}num-tokens`, int(options.numTokens ?? 128, 1)),
    replication_factor: flag(
      options.replicationFactorFlag ?? `${ring}replication-factor`,
      int(options.replicationFactor ?? 3, 1),
    ),
    ...instanceFields(ring),
    instance_availability_zone: flag(`${ring}instance-availability-zone`, str('')),
  });
}

/** `distributor.ring`: a distributor only registers itself (one token, no zones). */
export function distributorRingSection() {
  const ring = 'distributor.ring.';
  return section({
    kvstore: kvStoreSection(ring, 'collectors/'),
    heartbeat_period: flag(`${ring}heartbeat-period`, duration(5_000)),
    heartbeat_timeout: flag(`${ring}heartbeat-timeout`, duration(60_000)),
    ...instanceFields(ring),
  });
}

/** `ruler.ring`: as the distributor's, with its own key prefix and a number of tokens. */
export function rulerRingSection() {
  const ring = 'ruler.ring.';
  return section({
    kvstore: kvStoreSection(ring, 'rulers/'),
    heartbeat_period: flag(`${ring}heartbeat-period`, duration(5_000)),
    heartbeat_timeout: flag(`${ring}heartbeat-timeout`, duration(60_000)),
    ...instanceFields(ring),
    num_tokens: flag(`${ring}num-tokens`, int(128, 1)),
  });
}

/**
 * `ingester.lifecycler` (dskit's LifecyclerConfig with its ring.Config). `flagPrefix` is
 * dskit's prefix: '' for the ingester (whose own flags are then `-ingester.*`),
 * `pattern-ingester.` for `pattern_ingester.lifecycler`.
 */
export function lifecyclerSection(flagPrefix = '', defaults: { replicationFactor?: number } = {}) {
  const own = flagPrefix === '' ? 'ingester.' : flagPrefix;
  return section({
    ring: section({
      kvstore: kvStoreSection(flagPrefix, 'collectors/'),
      heartbeat_timeout: flag(`${flagPrefix}ring.heartbeat-timeout`, duration(60_000)),
      // When not written, set at load to the effective default (see apply-common.ts).
      replication_factor: flag(
        `${flagPrefix}distributor.replication-factor`,
        int(defaults.replicationFactor ?? 3, 1),
      ),
      zone_awareness_enabled: flag(`${flagPrefix}distributor.zone-awareness-enabled`, bool(false)),
      excluded_zones: flag(`${flagPrefix}distributor.excluded-zones`, stringList([])),
    }),
    num_tokens: flag(`${own}num-tokens`, int(128, 1)),
    heartbeat_period: flag(`${own}heartbeat-period`, duration(5_000)),
    heartbeat_timeout: flag(`${own}heartbeat-timeout`, duration(60_000)),
    observe_period: flag(`${own}observe-period`, duration(0)),
    join_after: flag(`${own}join-after`, duration(0)),
    min_ready_duration: flag(`${own}min-ready-duration`, duration(15_000)),
    interface_names: flag(`${own}lifecycler.interface`, stringList([])),
    enable_inet6: flag(`${own}enable-inet6`, bool(false)),
    final_sleep: flag(`${own}final-sleep`, duration(0)),
    // The ring token file `/ingester/shutdown?delete_ring_tokens=true` deletes; empty: none.
    tokens_file_path: flag(
      flagPrefix === ''
        ? ['ingester.tokens-file-path', 'ingester.token-file-path']
        : `${own}tokens-file-path`,
      str(''),
    ),
    availability_zone: flag(`${own}availability-zone`, str('')),
    unregister_on_shutdown: flag(`${own}unregister-on-shutdown`, bool(true)),
    readiness_check_ring_health: flag(`${own}readiness-check-ring-health`, bool(true)),
    address: flag(`${own}lifecycler.addr`, str('')),
    // 0: server.grpc_listen_port.
    port: flag(`${own}lifecycler.port`, int(0)),
    id: flag(`${own}lifecycler.ID`, str(DEFAULT_INSTANCE_ID)),
  });
}

export type KvStoreConfig = z.output<ReturnType<typeof kvStoreSection>>;
export type LokiRingConfig = z.output<ReturnType<typeof lokiRingSection>>;
