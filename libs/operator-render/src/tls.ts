import type { LogServiceSpec } from '@logsvc/operator-api';

// TLS between the pods (`spec.tls`): one kubernetes.io/tls Secret, mounted read-only in every
// logsvc pod, serves gRPC and dials the peers. The peers are dialled by pod IP (ring addresses)
// or by Service name, so every client expects one fixed name on the certificate instead:
// `<logservice>-grpc`, the only SAN the certificate needs.

export const TLS_VOLUME = 'tls';
export const TLS_DIR = '/etc/logsvc-tls';
export const TLS_CERT_FILE = `${TLS_DIR}/tls.crt`;
export const TLS_KEY_FILE = `${TLS_DIR}/tls.key`;
export const TLS_CA_FILE = `${TLS_DIR}/ca.crt`;
/** The keys the Secret must hold. */
export const TLS_SECRET_KEYS = ['tls.crt', 'tls.key', 'ca.crt'] as const;

/**
 * Every gRPC client block of logsvc's config (libs/config's grpcClientTlsConfigs), as paths:
 * each kind of peer a pod dials.
 */
export const GRPC_CLIENT_BLOCKS: readonly (readonly string[])[] = [
  ['ingester_client', 'grpc_client_config'],
  ['pattern_ingester', 'client_config', 'grpc_client_config'],
  ['storage_config', 'tsdb_shipper', 'index_gateway_client', 'grpc_client_config'],
  ['frontend', 'grpc_client_config'],
  ['frontend_worker', 'grpc_client_config'],
  ['ruler', 'ruler_client'],
  ['ruler', 'evaluation', 'query_frontend'],
];

/** Where the managed etcd mounts the same Secret. */
export const ETCD_TLS_DIR = '/etc/etcd-tls';

/**
 * With `spec.tls` and the managed etcd: the keys of `common.ring.kvstore.etcd` that dial it with
 * TLS (the other rings copy `common.ring`); {} otherwise.
 */
export function etcdClientTlsConfig(name: string, spec: LogServiceSpec): Record<string, unknown> {
  const tls = spec.tls;
  if (tls === undefined || spec.mode === 'SingleBinary' || spec.ring.store !== 'managed') return {};
  return {
    tls_enabled: true,
    tls_ca_path: TLS_CA_FILE,
    tls_server_name: tlsServerName(name),
    ...(tls.mutual ? { tls_cert_path: TLS_CERT_FILE, tls_key_path: TLS_KEY_FILE } : {}),
  };
}

/** The name every client expects on the certificate of the server it dials. */
export function tlsServerName(name: string): string {
  return `${name}-grpc`;
}

/** The TLS keys of config.yaml for `spec.tls` (server and every client block); {} without. */
export function tlsConfig(name: string, spec: LogServiceSpec): Record<string, unknown> {
  const tls = spec.tls;
  if (tls === undefined) return {};
  const client = {
    tls_enabled: true,
    tls_ca_path: TLS_CA_FILE,
    tls_server_name: tlsServerName(name),
    ...(tls.mutual ? { tls_cert_path: TLS_CERT_FILE, tls_key_path: TLS_KEY_FILE } : {}),
  };
  const out: Record<string, unknown> = {
    server: {
      grpc_tls_config: {
        cert_file: TLS_CERT_FILE,
        key_file: TLS_KEY_FILE,
        ...(tls.mutual
          ? { client_auth_type: 'RequireAndVerifyClientCert', client_ca_file: TLS_CA_FILE }
          : {}),
      },
    },
  };
  const etcd = etcdClientTlsConfig(name, spec);
  if (Object.keys(etcd).length > 0) out.common = { ring: { kvstore: { etcd } } };
  for (const path of GRPC_CLIENT_BLOCKS) {
    let at = out;
    for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
    at[path[path.length - 1]] = { ...client };
  }
  return out;
}

/** The Secret's volume and its read-only mount, for a logsvc pod; none without `spec.tls`. */
export function tlsVolume(
  spec: LogServiceSpec,
): { volume: Record<string, unknown>; mount: Record<string, unknown> } | undefined {
  if (spec.tls === undefined) return undefined;
  return {
    // 0440: the key is readable by the pod's group (fsGroup) only.
    volume: { name: TLS_VOLUME, secret: { secretName: spec.tls.secretName, defaultMode: 0o440 } },
    mount: { name: TLS_VOLUME, mountPath: TLS_DIR, readOnly: true },
  };
}
