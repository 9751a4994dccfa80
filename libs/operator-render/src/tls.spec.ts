import {
  grpcClientTlsConfigs,
  loadConfig,
  resolveRingConfig,
  RING_NAMES,
  validateConfig,
} from '@logsvc/config';
import { parseSpec, type LogServiceSpec } from '@logsvc/operator-api';
import { describe, expect, it } from 'vitest';
import type { Manifest } from './manifest';
import { renderAll } from './render';

const owner = { name: 'logs', namespace: 'team-a', uid: '6d1c0c1e-1111-2222-3333-444455556666' };
const v1 = { pdbApiVersion: 'policy/v1' } as const;

function specOf(raw: Record<string, unknown>): LogServiceSpec {
  const parsed = parseSpec({ version: '0.1.0', ...raw });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.spec;
}
const micro = (tls?: Record<string, unknown>) =>
  specOf({
    mode: 'Microservices',
    storage: { sharedClaimName: 'shared' },
    components: { indexGateway: { replicas: 1 } },
    ruler: { enabled: true },
    ...(tls === undefined ? {} : { tls }),
  });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk manifests freely
type Loose = any;
/** The logsvc workloads (not the managed etcd). */
const logsvcWorkloads = (manifests: Manifest[]) =>
  manifests.filter(
    (m) => (m.kind === 'Deployment' || m.kind === 'StatefulSet') && m.metadata.name !== 'logs-etcd',
  ) as Array<Manifest & { spec: Loose }>;

/** Each workload's config, loaded and validated by logsvc's loader with the pod's arguments. */
function loadedConfigs(manifests: Manifest[]) {
  const configMap = manifests.find((m) => m.kind === 'ConfigMap') as Manifest & {
    data: Record<string, string>;
  };
  return logsvcWorkloads(manifests).map((w) => {
    const config = loadConfig(w.spec.template.spec.containers[0].args, {
      readFile: () => configMap.data['config.yaml'],
      env: { POD_IP: '10.0.0.1', POD_NAME: `${w.metadata.name}-0` },
    });
    validateConfig(config);
    return { name: w.metadata.name, config };
  });
}

describe('spec.tls', () => {
  it('turns on mutual TLS for the gRPC server and every gRPC client of every target', () => {
    const { manifests } = renderAll(owner, micro({ secretName: 'logs-tls' }), v1);
    const loaded = loadedConfigs(manifests);
    expect(loaded.map((l) => l.name)).toContain('logs-ruler');
    for (const { config } of loaded) {
      expect(config.server.grpc_tls_config).toEqual({
        cert_file: '/etc/logsvc-tls/tls.crt',
        key_file: '/etc/logsvc-tls/tls.key',
        client_auth_type: 'RequireAndVerifyClientCert',
        client_ca_file: '/etc/logsvc-tls/ca.crt',
      });
      const blocks = grpcClientTlsConfigs(config);
      expect(blocks).toHaveLength(7);
      for (const [key, block] of blocks) {
        expect({ key, ...block }).toMatchObject({
          key,
          tls_enabled: true,
          tls_cert_path: '/etc/logsvc-tls/tls.crt',
          tls_key_path: '/etc/logsvc-tls/tls.key',
          tls_ca_path: '/etc/logsvc-tls/ca.crt',
          tls_server_name: 'logs-grpc',
          tls_insecure_skip_verify: false,
        });
      }
    }
  });

  it('without mutual: servers ask for no client certificate and clients present none', () => {
    const { manifests } = renderAll(owner, micro({ secretName: 'logs-tls', mutual: false }), v1);
    for (const { config } of loadedConfigs(manifests)) {
      expect(config.server.grpc_tls_config).toMatchObject({
        cert_file: '/etc/logsvc-tls/tls.crt',
        client_auth_type: '',
        client_ca_file: '',
      });
      for (const [, block] of grpcClientTlsConfigs(config)) {
        expect(block).toMatchObject({
          tls_enabled: true,
          tls_cert_path: '',
          tls_key_path: '',
          tls_ca_path: '/etc/logsvc-tls/ca.crt',
          tls_server_name: 'logs-grpc',
        });
      }
    }
  });

  it('mounts the Secret read-only in every logsvc pod, and nothing without spec.tls', () => {
    const { manifests } = renderAll(owner, micro({ secretName: 'logs-tls' }), v1);
    const workloads = logsvcWorkloads(manifests);
    expect(workloads.length).toBeGreaterThan(5);
    for (const w of workloads) {
      const pod = w.spec.template.spec;
      expect(pod.volumes).toContainEqual({
        name: 'tls',
        secret: { secretName: 'logs-tls', defaultMode: 0o440 },
      });
      expect(pod.containers[0].volumeMounts).toContainEqual({
        name: 'tls',
        mountPath: '/etc/logsvc-tls',
        readOnly: true,
      });
    }
    const plain = renderAll(owner, micro(), v1);
    for (const w of logsvcWorkloads(plain.manifests)) {
      expect(w.spec.template.spec.volumes.map((v: Loose) => v.name)).not.toContain('tls');
    }
    for (const { config } of loadedConfigs(plain.manifests)) {
      expect(config.server.grpc_tls_config.cert_file).toBe('');
      for (const [, block] of grpcClientTlsConfigs(config)) expect(block.tls_enabled).toBe(false);
    }
  });

  it('rolls the pods when TLS is switched on (config.yaml changes)', () => {
    const plain = renderAll(owner, micro(), v1);
    const tls = renderAll(owner, micro({ secretName: 'logs-tls' }), v1);
    expect(tls.configHash).not.toBe(plain.configHash);
  });

  it('also applies to the single binary and SimpleScalable', () => {
    for (const spec of [
      specOf({ tls: { secretName: 'logs-tls' } }),
      specOf({
        mode: 'SimpleScalable',
        storage: { sharedClaimName: 'x' },
        tls: { secretName: 't' },
      }),
    ]) {
      for (const { config } of loadedConfigs(renderAll(owner, spec, v1).manifests)) {
        expect(config.server.grpc_tls_config.client_auth_type).toBe('RequireAndVerifyClientCert');
        expect(config.ingester_client.grpc_client_config.tls_enabled).toBe(true);
      }
    }
  });

  const etcdOf = (manifests: Manifest[]) =>
    (
      manifests.find(
        (m) => m.kind === 'StatefulSet' && m.metadata.name === 'logs-etcd',
      ) as Manifest & {
        spec: Loose;
      }
    ).spec.template.spec;

  it('serves the managed etcd with TLS only, mutual, and dials it so from every ring', () => {
    const { manifests } = renderAll(owner, micro({ secretName: 'logs-tls' }), v1);
    const etcd = etcdOf(manifests);
    const container = etcd.containers[0];
    expect(container.command).toEqual(
      expect.arrayContaining([
        '--listen-client-urls=https://0.0.0.0:2379',
        '--advertise-client-urls=https://$(POD_NAME).logs-etcd-headless:2379',
        '--cert-file=/etc/etcd-tls/tls.crt',
        '--key-file=/etc/etcd-tls/tls.key',
        '--trusted-ca-file=/etc/etcd-tls/ca.crt',
        '--client-cert-auth=true',
        '--listen-metrics-urls=http://0.0.0.0:2381',
        // Between the members: mutual TLS with the same certificate, https peer URLs.
        '--listen-peer-urls=https://0.0.0.0:2380',
        '--initial-advertise-peer-urls=https://$(POD_NAME).logs-etcd-headless:2380',
        '--initial-cluster=logs-etcd-0=https://logs-etcd-0.logs-etcd-headless:2380,logs-etcd-1=https://logs-etcd-1.logs-etcd-headless:2380,logs-etcd-2=https://logs-etcd-2.logs-etcd-headless:2380',
        '--peer-cert-file=/etc/etcd-tls/tls.crt',
        '--peer-key-file=/etc/etcd-tls/tls.key',
        '--peer-trusted-ca-file=/etc/etcd-tls/ca.crt',
        '--peer-client-cert-auth=true',
      ]),
    );
    // The kubelet has no client certificate: /health on the plain metrics port.
    expect(container.readinessProbe.httpGet).toEqual({ path: '/health', port: 'metrics' });
    expect(container.ports).toContainEqual({
      name: 'metrics',
      containerPort: 2381,
      protocol: 'TCP',
    });
    expect(etcd.volumes).toEqual([
      { name: 'tls', secret: { secretName: 'logs-tls', defaultMode: 0o440 } },
    ]);
    expect(container.volumeMounts).toContainEqual({
      name: 'tls',
      mountPath: '/etc/etcd-tls',
      readOnly: true,
    });
    for (const { config } of loadedConfigs(manifests)) {
      for (const ring of RING_NAMES) {
        expect(resolveRingConfig(config, ring).kvstore.etcd).toMatchObject({
          endpoints: ['logs-etcd:2379'],
          tls: {
            enabled: true,
            certPath: '/etc/logsvc-tls/tls.crt',
            keyPath: '/etc/logsvc-tls/tls.key',
            caPath: '/etc/logsvc-tls/ca.crt',
            serverName: 'logs-grpc',
          },
        });
      }
    }
  });

  it('leaves etcd alone without spec.tls, asks no client certificate without mutual', () => {
    const plain = etcdOf(renderAll(owner, micro(), v1).manifests).containers[0];
    expect(plain.command).toContain('--listen-client-urls=http://0.0.0.0:2379');
    expect(plain.command).toContain('--listen-peer-urls=http://0.0.0.0:2380');
    expect(plain.command.some((f: string) => /^--(peer-)?cert-file/.test(f))).toBe(false);
    expect(plain.readinessProbe.httpGet.port).toBe('client');

    const oneWay = renderAll(owner, micro({ secretName: 'logs-tls', mutual: false }), v1);
    const command: string[] = etcdOf(oneWay.manifests).containers[0].command;
    expect(command).toContain('--cert-file=/etc/etcd-tls/tls.crt');
    expect(command.some((f) => f.startsWith('--client-cert-auth'))).toBe(false);
    // Peers are always mutual (only the members dial the peer port).
    expect(command).toContain('--peer-client-cert-auth=true');
    const [{ config }] = loadedConfigs(oneWay.manifests);
    expect(resolveRingConfig(config, 'ingester').kvstore.etcd.tls).toMatchObject({
      enabled: true,
      certPath: '',
      caPath: '/etc/logsvc-tls/ca.crt',
    });
  });

  it('keeps plaintext between the members of an etcd created without spec.tls', () => {
    // Its member list holds http peer URLs, which a restart with https flags does not change.
    const spec = micro({ secretName: 'logs-tls' });
    const etcd = { members: 3, initialClusterState: 'new' as const, peerTls: false };
    const command: string[] = etcdOf(renderAll(owner, spec, v1, spec, { etcd }).manifests)
      .containers[0].command;
    expect(command).toContain('--listen-client-urls=https://0.0.0.0:2379');
    expect(command).toContain('--listen-peer-urls=http://0.0.0.0:2380');
    expect(command.some((f) => f.startsWith('--peer-'))).toBe(false);
    expect(command.find((f) => f.startsWith('--initial-cluster='))).toContain(
      'logs-etcd-0=http://logs-etcd-0.logs-etcd-headless:2380',
    );
  });

  it('does not touch the TLS of an existing etcd (ring.store: etcd)', () => {
    const spec = specOf({
      mode: 'Microservices',
      storage: { sharedClaimName: 'shared' },
      ring: { store: 'etcd', etcdEndpoints: ['etcd.infra:2379'] },
      tls: { secretName: 'logs-tls' },
    });
    for (const { config } of loadedConfigs(renderAll(owner, spec, v1).manifests)) {
      expect(config.ingester_client.grpc_client_config.tls_enabled).toBe(true);
      expect(resolveRingConfig(config, 'ingester').kvstore.etcd.tls.enabled).toBe(false);
    }
  });
});
