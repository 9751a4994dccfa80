import {
  type Config,
  ConfigError,
  type GrpcClientTlsConfig,
  type ServerTlsConfig,
  grpcClientTlsConfigs,
} from '@logsvc/config';
import {
  type ClientTlsFiles,
  type RpcClientOptions,
  type ServerTlsFiles,
  clientCredentials,
  serverCredentials,
} from '@logsvc/rpc';

/**
 * Options of a gRPC client this process opens to its peers, with the TLS of its
 * `grpc_client_config` block (`ingester_client.grpc_client_config`, `ruler.ruler_client`, ...).
 */
export function rpcClientOptions(config: Config, client: GrpcClientTlsConfig): RpcClientOptions {
  const tls = clientTls(client);
  return {
    maxRecvMsgSize: config.server.grpc_server_max_recv_msg_size,
    maxSendMsgSize: config.server.grpc_server_max_send_msg_size,
    // A peer's streamed part of a query may take as long as the query may.
    streamTimeoutMs: config.limits_config.query_timeout,
    ...(tls ? { tls } : {}),
  };
}

/** The TLS files of a client block; undefined (plaintext) unless `tls_enabled`. */
export function clientTls(client: GrpcClientTlsConfig): ClientTlsFiles | undefined {
  if (!client.tls_enabled) return undefined;
  return {
    certPath: client.tls_cert_path,
    keyPath: client.tls_key_path,
    caPath: client.tls_ca_path,
    serverName: client.tls_server_name,
    insecureSkipVerify: client.tls_insecure_skip_verify,
  };
}

/** The gRPC server's TLS; undefined (plaintext) without a certificate. */
export function serverTls(tls: ServerTlsConfig): ServerTlsFiles | undefined {
  if (tls.cert_file === '') return undefined;
  return {
    certFile: tls.cert_file,
    keyFile: tls.key_file,
    requireClientCert: tls.client_auth_type === 'RequireAndVerifyClientCert',
    clientCaFile: tls.client_ca_file,
  };
}

/**
 * Reads every TLS file the config names once, so that a missing or unreadable one stops
 * start-up with its key rather than failing the first call to a peer.
 */
export function checkTlsFiles(config: Config): void {
  const problems: string[] = [];
  const attempt = (key: string, read: () => unknown): void => {
    try {
      read();
    } catch (err) {
      problems.push(`config error: ${key}: ${(err as Error).message}`);
    }
  };
  const server = serverTls(config.server.grpc_tls_config);
  if (server) attempt('server.grpc_tls_config', () => serverCredentials(server));
  for (const [key, block] of grpcClientTlsConfigs(config)) {
    const tls = clientTls(block);
    if (tls) attempt(key, () => clientCredentials(tls));
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
}
