import { parseSpec } from '@logsvc/operator-api';
import { renderConfig } from '@logsvc/operator-render';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { reviewLogService } from '../webhook/review';
import { checkConfigOverrides } from './config-check';

const micro = {
  version: '0.1.0',
  mode: 'Microservices',
  storage: { sharedClaimName: 'shared' },
};
const specOf = (raw: Record<string, unknown>) => {
  const parsed = parseSpec(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.spec;
};

describe('configOverrides', () => {
  it('merges keys the spec does not model into config.yaml, map by map', () => {
    const spec = specOf({
      ...micro,
      configOverrides: { ingester: { chunk_idle_period: '1h' }, server: { log_level: 'debug' } },
    });
    const doc = parse(renderConfig('logs', spec));
    expect(doc.ingester.chunk_idle_period).toBe('1h');
    expect(doc.server.log_level).toBe('debug');
    // What the operator rendered beside them stays.
    expect(doc.server.http_listen_port).toBe(3100);
    expect(checkConfigOverrides('logs', spec)).toBeUndefined();
  });

  it.each([
    [
      { ingester: { chunk_idle_priod: '1h' } },
      'spec.configOverrides: ingester.chunk_idle_priod: unknown key',
    ],
    [
      { ingester: { chunk_idle_period: 'soon' } },
      'spec.configOverrides: ingester.chunk_idle_period: expected a duration',
    ],
  ])('refuses %j with logsvc config loader message', (overrides, message) => {
    expect(
      checkConfigOverrides('logs', specOf({ ...micro, configOverrides: overrides })),
    ).toContain(message);
  });

  it('loads a TLS-enabled config with logsvc config loader, and refuses overrides that break it', () => {
    const tls = { ...micro, tls: { secretName: 'logs-tls' } };
    const spec = specOf({ ...tls, configOverrides: { server: { log_level: 'debug' } } });
    expect(parse(renderConfig('logs', spec)).server.grpc_tls_config.client_auth_type).toBe(
      'RequireAndVerifyClientCert',
    );
    expect(checkConfigOverrides('logs', spec)).toBeUndefined();
    const unpaired = { server: { grpc_tls_config: { key_file: '' } } };
    expect(checkConfigOverrides('logs', specOf({ ...tls, configOverrides: unpaired }))).toContain(
      'spec.configOverrides: server.grpc_tls_config: cert_file and key_file must be set together',
    );
    const refused = {
      server: { grpc_tls_config: { client_auth_type: 'VerifyClientCertIfGiven' } },
    };
    expect(checkConfigOverrides('logs', specOf({ ...tls, configOverrides: refused }))).toContain(
      'VerifyClientCertIfGiven is not supported by logsvc',
    );
  });

  it('is refused by the webhook before anything is applied', () => {
    const outcome = reviewLogService({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'u',
        operation: 'CREATE',
        name: 'logs',
        object: { metadata: { name: 'logs' }, spec: { ...micro, configOverrides: { nope: 1 } } },
      },
    });
    expect(outcome.refused).toContain('spec.configOverrides: nope: unknown key');
  });
});
