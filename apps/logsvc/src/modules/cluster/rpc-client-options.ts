import type { Config, GrpcClientTlsConfig, ServerTlsConfig } from '@logsvc/config';
import type { ClientTlsFiles, RpcClientOptions, ServerTlsFiles } from '@logsvc/rpc';

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
