import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors';
import { parseArgs } from './flags';
import { defaultConfig, parseConfig } from './parse';

function errorOf(raw: Record<string, unknown>): string {
  try {
    parseConfig(raw);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return 'no error';
}

describe('TLS between components and ui.cluster_actions', () => {
  it('defaults to plaintext gRPC and a UI that does not change other processes', () => {
    const sut = defaultConfig();
    expect(sut.server.grpc_listen_address).toBe('');
    expect(sut.server.grpc_tls_config).toEqual({
      cert_file: '',
      key_file: '',
      client_auth_type: '',
      client_ca_file: '',
    });
    expect(sut.ingester_client.grpc_client_config.tls_enabled).toBe(false);
    expect(sut.ui.cluster_actions).toBe(false);
  });

  it("takes Loki's flags for the server and every client block", () => {
    const sut = parseArgs([
      '-server.grpc-tls-cert-path=s.crt',
      '-server.grpc-tls-client-auth=RequireAndVerifyClientCert',
      '-ingester.client.tls-enabled',
      '-querier.frontend-client.tls-ca-path=ca.crt',
      '-frontend.grpc-client-config.tls-server-name=sched',
      '-tsdb.shipper.index-gateway-client.grpc.tls-insecure-skip-verify',
      '-pattern-ingester.client.tls-key-path=p.key',
      '-ruler.client.tls-cert-path=r.crt',
      '-ruler.evaluation.query-frontend.tls-enabled',
      '-ui.cluster-actions',
    ]);
    expect(sut.settings.map((s) => s.path)).toEqual([
      'server.grpc_tls_config.cert_file',
      'server.grpc_tls_config.client_auth_type',
      'ingester_client.grpc_client_config.tls_enabled',
      'frontend_worker.grpc_client_config.tls_ca_path',
      'frontend.grpc_client_config.tls_server_name',
      'storage_config.tsdb_shipper.index_gateway_client.grpc_client_config.tls_insecure_skip_verify',
      'pattern_ingester.client_config.grpc_client_config.tls_key_path',
      'ruler.ruler_client.tls_cert_path',
      'ruler.evaluation.query_frontend.tls_enabled',
      'ui.cluster_actions',
    ]);
  });

  it('names the key of an incomplete or unsupported TLS setting', () => {
    expect(errorOf({ server: { grpc_tls_config: { cert_file: 'a.crt' } } })).toContain(
      'server.grpc_tls_config: cert_file and key_file must be set together',
    );
    expect(
      errorOf({ server: { grpc_tls_config: { client_auth_type: 'RequireAndVerifyClientCert' } } }),
    ).toContain('RequireAndVerifyClientCert needs cert_file and key_file');
    expect(
      errorOf({
        server: { grpc_tls_config: { cert_file: 'a', key_file: 'b', client_ca_file: 'ca' } },
      }),
    ).toContain("Client CA's have been configured without a Client Auth Policy");
    expect(
      errorOf({ server: { grpc_tls_config: { client_auth_type: 'VerifyClientCertIfGiven' } } }),
    ).toContain('VerifyClientCertIfGiven is not supported by logsvc');
    expect(
      errorOf({ ingester_client: { grpc_client_config: { tls_cert_path: 'c.crt' } } }),
    ).toContain('ingester_client.grpc_client_config: certificate given but no key configured');
    expect(errorOf({ ruler: { ruler_client: { tls_key_path: 'c.key' } } })).toContain(
      'ruler.ruler_client: key given but no certificate configured',
    );
    expect(errorOf({ server: { http_tls_config: { cert_file: 'a.crt' } } })).toContain(
      'server.http_tls_config.cert_file: not supported by logsvc',
    );
  });
});
