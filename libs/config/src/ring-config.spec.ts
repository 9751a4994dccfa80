import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from './load';
import { parseConfig } from './parse';
import { effectiveReplicationFactor, resolveRingConfig } from './ring-config';

const load = (yaml: string, ...flags: string[]) =>
  loadConfig(['-config.file=loki.yaml', ...flags], { readFile: () => yaml });

// As in Loki's docs for a microservices deployment, with etcd instead of memberlist.
const MICROSERVICES = `
target: ingester
common:
  path_prefix: /loki
  replication_factor: 3
  ring:
    instance_addr: 10.0.0.5
    kvstore:
      store: etcd
      prefix: loki/
      etcd:
        endpoints: [etcd-0:2379, etcd-1:2379]
        dial_timeout: 5s
        tls_enabled: true
        tls_ca_path: /certs/ca.pem
        username: loki
        password: s3cret
ingester:
  lifecycler:
    id: ingester-0
    join_after: 10s
    num_tokens: 512
    final_sleep: 0s
    ring:
      heartbeat_timeout: 2m
distributor:
  ring:
    heartbeat_period: 3s
index_gateway:
  mode: ring
`;

describe('resolveRingConfig', () => {
  const config = load(MICROSERVICES);

  it('gives the ingester the common ring with its own lifecycler settings', () => {
    expect(resolveRingConfig(config, 'ingester')).toEqual({
      ring: 'ingester',
      key: 'ring',
      kvstore: {
        store: 'etcd',
        prefix: 'loki/',
        etcd: {
          endpoints: ['etcd-0:2379', 'etcd-1:2379'],
          dialTimeoutMs: 5_000,
          maxRetries: 10,
          tls: {
            enabled: true,
            certPath: '',
            keyPath: '',
            caPath: '/certs/ca.pem',
            serverName: '',
            insecureSkipVerify: false,
          },
          username: 'loki',
          password: 's3cret',
        },
      },
      instanceId: 'ingester-0',
      instanceAddr: '10.0.0.5',
      instancePort: 9095,
      zone: '',
      zoneAwarenessEnabled: false,
      // common.ring's heartbeat period (15s) replaces the ingester's default (5s), as in Loki.
      heartbeatPeriodMs: 15_000,
      heartbeatTimeoutMs: 120_000,
      replicationFactor: 3,
      numTokens: 512,
      tokensFilePath: '',
      joinAfterMs: 10_000,
      minReadyDurationMs: 15_000,
      finalSleepMs: 0,
      unregisterOnShutdown: true,
      readinessCheckRingHealth: true,
    });
  });

  it('gives every other ring the common kvstore under its own key', () => {
    for (const [ring, key] of [
      ['distributor', 'distributor'],
      ['index-gateway', 'index-gateway'],
      ['compactor', 'compactor'],
      ['ruler', 'rulers'],
      ['scheduler', 'scheduler'],
    ] as const) {
      const sut = resolveRingConfig(config, ring);
      expect(sut.key).toBe(key);
      expect(sut.kvstore.store).toBe('etcd');
      expect(sut.kvstore.prefix).toBe('loki/');
      expect(sut.kvstore.etcd.endpoints).toEqual(['etcd-0:2379', 'etcd-1:2379']);
      expect(sut.instanceAddr).toBe('10.0.0.5');
      expect(sut.instanceId).toBe(hostname());
    }
  });

  it("keeps a component's own setting over the common one", () => {
    const distributor = resolveRingConfig(config, 'distributor');
    expect(distributor.heartbeatPeriodMs).toBe(3_000);
    expect(distributor.heartbeatTimeoutMs).toBe(60_000);
    expect(resolveRingConfig(config, 'index-gateway').heartbeatPeriodMs).toBe(15_000);

    const doc = parseYaml(MICROSERVICES) as { ingester: { lifecycler: Record<string, unknown> } };
    Object.assign(doc.ingester.lifecycler, {
      address: '10.0.0.9',
      port: 7000,
      ring: { kvstore: { prefix: 'ingesters/' } },
    });
    const own = parseConfig(doc);
    const ingester = resolveRingConfig(own, 'ingester');
    expect(ingester.instanceAddr).toBe('10.0.0.9');
    expect(ingester.instancePort).toBe(7000);
    // The written prefix wins; the rest of the kvstore still comes from common.ring.
    expect(ingester.kvstore.prefix).toBe('ingesters/');
    expect(ingester.kvstore.store).toBe('etcd');
    expect(ingester.kvstore.etcd.username).toBe('loki');
  });

  it('gives the fixed replication factors and token counts Loki uses per ring', () => {
    const of = (ring: Parameters<typeof resolveRingConfig>[1]) => {
      const { replicationFactor, numTokens } = resolveRingConfig(config, ring);
      return [replicationFactor, numTokens];
    };
    expect(of('distributor')).toEqual([1, 1]);
    expect(of('index-gateway')).toEqual([3, 128]);
    expect(of('compactor')).toEqual([1, 1]);
    expect(of('ruler')).toEqual([1, 128]);
    expect(of('scheduler')).toEqual([2, 1]);
  });

  it('takes common.instance_addr when no ring sets an address', () => {
    const config = parseConfig({ common: { instance_addr: '10.1.2.3' } });
    expect(resolveRingConfig(config, 'ingester').instanceAddr).toBe('10.1.2.3');
    expect(resolveRingConfig(config, 'distributor').instanceAddr).toBe('10.1.2.3');
    const ringAddr = parseConfig({
      common: { instance_addr: '10.1.2.3', ring: { instance_addr: '10.9.9.9' } },
    });
    expect(resolveRingConfig(ringAddr, 'ingester').instanceAddr).toBe('10.9.9.9');
  });

  it('advertises 127.0.0.1 and the gRPC port when nothing is set', () => {
    const config = parseConfig({ server: { grpc_listen_port: 9196 } });
    const sut = resolveRingConfig(config, 'ingester');
    expect([sut.instanceAddr, sut.instancePort]).toEqual(['127.0.0.1', 9196]);
    expect(sut.kvstore.store).toBe('inmemory');
    expect(sut.kvstore.prefix).toBe('collectors/');
    expect(sut.instanceId).toBe(hostname());
    expect(sut.heartbeatPeriodMs).toBe(5_000);
  });

  it('shares an ingester-only ring with the rings left at their defaults', () => {
    const config = parseConfig(
      parseYaml(`
ingester:
  lifecycler:
    address: 10.0.0.7
    ring:
      kvstore:
        store: etcd
        etcd: { endpoints: [etcd:2379] }
distributor:
  ring:
    kvstore:
      store: inmemory
      prefix: dist/
`),
    );
    expect(resolveRingConfig(config, 'index-gateway').kvstore.etcd.endpoints).toEqual([
      'etcd:2379',
    ]);
    expect(resolveRingConfig(config, 'index-gateway').instanceAddr).toBe('10.0.0.7');
    // The distributor's ring is configured, so it is left alone.
    expect(resolveRingConfig(config, 'distributor').kvstore).toMatchObject({
      store: 'inmemory',
      prefix: 'dist/',
    });
  });

  it('keeps tokens under path_prefix with common.persist_tokens', () => {
    const config = parseConfig({ common: { path_prefix: '/loki', persist_tokens: true } });
    expect(resolveRingConfig(config, 'ingester').tokensFilePath).toBe('/loki/ingester.tokens');
    expect(resolveRingConfig(config, 'index-gateway').tokensFilePath).toBe(
      '/loki/indexgateway.tokens',
    );
    const own = parseConfig({
      common: { path_prefix: '/loki', persist_tokens: true },
      ingester: { lifecycler: { tokens_file_path: '/t/ing' } },
    });
    expect(resolveRingConfig(own, 'ingester').tokensFilePath).toBe('/t/ing');
  });
});

describe('replication factor', () => {
  it('is 1 for the single binary and 3 for other targets when unset', () => {
    expect(effectiveReplicationFactor(parseConfig({}))).toBe(1);
    expect(resolveRingConfig(parseConfig({}), 'ingester').replicationFactor).toBe(1);
    const ingester = loadConfig(['-target=ingester']);
    expect(effectiveReplicationFactor(ingester)).toBe(3);
    expect(resolveRingConfig(ingester, 'ingester').replicationFactor).toBe(3);
    expect(resolveRingConfig(loadConfig(['-target=write']), 'ingester').replicationFactor).toBe(3);
  });

  it('follows common.replication_factor, and the ingester ring setting over that', () => {
    const common = parseConfig({ common: { replication_factor: 2 } });
    expect(resolveRingConfig(common, 'ingester').replicationFactor).toBe(2);
    expect(resolveRingConfig(common, 'index-gateway').replicationFactor).toBe(2);
    const own = loadConfig(['-target=ingester', '-distributor.replication-factor=5']);
    expect(resolveRingConfig(own, 'ingester').replicationFactor).toBe(5);
    // Written as 3 for the single binary: kept, not replaced by the default of 1.
    const written = parseConfig({ ingester: { lifecycler: { ring: { replication_factor: 3 } } } });
    expect(resolveRingConfig(written, 'ingester').replicationFactor).toBe(3);
  });
});

describe('ring flags', () => {
  it("set the fields under Loki's flag names", () => {
    const config = loadConfig([
      '-target=ingester',
      '-ingester.num-tokens=64',
      '-ingester.join-after=30s',
      '-ingester.min-ready-duration=1s',
      '-ingester.lifecycler.ID=ing-7',
      '-ingester.lifecycler.addr=10.0.0.8',
      '-ingester.lifecycler.port=9200',
      '-ingester.availability-zone=zone-a',
      '-distributor.zone-awareness-enabled',
      '-ingester.unregister-on-shutdown=false',
      '-common.storage.ring.store=etcd',
      '-common.storage.ring.etcd.endpoints=a:2379,b:2379',
      '-common.storage.ring.etcd.tls-insecure-skip-verify',
      '-distributor.ring.heartbeat-timeout=30s',
      '-index-gateway.mode=ring',
      '-index-gateway.ring.instance-addr=10.0.0.11',
    ]);
    const ingester = resolveRingConfig(config, 'ingester');
    expect(ingester).toMatchObject({
      numTokens: 64,
      joinAfterMs: 30_000,
      minReadyDurationMs: 1_000,
      instanceId: 'ing-7',
      instanceAddr: '10.0.0.8',
      instancePort: 9200,
      zone: 'zone-a',
      zoneAwarenessEnabled: true,
      unregisterOnShutdown: false,
    });
    expect(ingester.kvstore.store).toBe('etcd');
    expect(ingester.kvstore.etcd.endpoints).toEqual(['a:2379', 'b:2379']);
    expect(ingester.kvstore.etcd.tls.insecureSkipVerify).toBe(true);
    expect(resolveRingConfig(config, 'distributor').heartbeatTimeoutMs).toBe(30_000);
    expect(config.index_gateway.mode).toBe('ring');
    expect(resolveRingConfig(config, 'index-gateway').instanceAddr).toBe('10.0.0.11');
  });

  it("use the ingester ring's own kvstore flags (-ring.store, -etcd.*)", () => {
    const config = loadConfig(['-ring.store=etcd', '-etcd.endpoints=e:2379', '-ring.prefix=x/']);
    expect(resolveRingConfig(config, 'ingester').kvstore).toMatchObject({
      store: 'etcd',
      prefix: 'x/',
      etcd: { endpoints: ['e:2379'] },
    });
  });
});
