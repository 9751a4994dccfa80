// TLS blocks with dskit's names: the server side (`server.grpc_tls_config`, web.TLSConfig) and
// the client side of every gRPC client (`grpc_client_config`, grpcclient.Config's TLS fields).
import { bool, flag, oneOf, section, str } from '../fields';

/** dskit's `client_auth_type` values; logsvc serves the two that gRPC can express. */
export const CLIENT_AUTH_TYPES = ['', 'NoClientCert', 'RequireAndVerifyClientCert'] as const;

const REFUSED_CLIENT_AUTH =
  'is not supported by logsvc: use NoClientCert or RequireAndVerifyClientCert';

/** A server's certificate and, for mutual TLS, the CA its clients' certificates must chain to. */
export function serverTlsSection(flagPrefix: string) {
  return section({
    cert_file: flag(`${flagPrefix}-cert-path`, str('')),
    key_file: flag(`${flagPrefix}-key-path`, str('')),
    client_auth_type: flag(
      `${flagPrefix}-client-auth`,
      oneOf(CLIENT_AUTH_TYPES, '', {
        RequestClientCert: `RequestClientCert ${REFUSED_CLIENT_AUTH}`,
        RequireAnyClientCert: `RequireAnyClientCert ${REFUSED_CLIENT_AUTH}`,
        RequireClientCert: `RequireClientCert ${REFUSED_CLIENT_AUTH}`,
        VerifyClientCertIfGiven: `VerifyClientCertIfGiven ${REFUSED_CLIENT_AUTH}`,
      }),
    ),
    client_ca_file: flag(`${flagPrefix}-ca-path`, str('')),
  });
}

/**
 * The TLS fields of a gRPC client block (`tls_enabled` and dskit's tls.ClientConfig), flags
 * under `prefix` (`-ingester.client.tls-enabled`, ...).
 */
export function grpcClientSection(prefix: string) {
  return section(grpcClientTlsFields(prefix));
}

/** The same fields, inline in a block that has others (`ruler.evaluation.query_frontend`). */
export function grpcClientTlsFields(prefix: string) {
  return {
    tls_enabled: flag(`${prefix}.tls-enabled`, bool(false)),
    tls_cert_path: flag(`${prefix}.tls-cert-path`, str('')),
    tls_key_path: flag(`${prefix}.tls-key-path`, str('')),
    tls_ca_path: flag(`${prefix}.tls-ca-path`, str('')),
    tls_server_name: flag(`${prefix}.tls-server-name`, str('')),
    tls_insecure_skip_verify: flag(`${prefix}.tls-insecure-skip-verify`, bool(false)),
  };
}
