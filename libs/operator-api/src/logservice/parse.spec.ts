import { describe, expect, it } from 'vitest';
import { formatIssues, parseSpec } from './parse';

const issuesOf = (raw: unknown) => {
  const parsed = parseSpec(raw);
  if (parsed.ok) throw new Error('expected issues');
  return formatIssues(parsed.issues);
};

describe('parseSpec', () => {
  it('fills the defaults of a minimal single-binary spec', () => {
    const parsed = parseSpec({ version: '0.1.0' });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const { spec } = parsed;
    expect(spec.mode).toBe('SingleBinary');
    expect(spec.image).toEqual({ repository: 'logsvc/logsvc', pullPolicy: 'IfNotPresent' });
    expect(spec.components.ingester.replicas).toBe(3);
    expect(spec.components.singleBinary).toEqual({ replicas: 1, resources: {} });
    expect(spec.storage).toMatchObject({ type: 'filesystem', size: '10Gi' });
    expect(spec.ring.managed.replicas).toBe(3);
    expect(spec.rollout.podReadyTimeout).toBe('10m');
    expect(spec.retention).toEqual({ enabled: false, deleteDelay: '2h' });
  });

  it('keeps what is written over the defaults', () => {
    const parsed = parseSpec({
      version: '0.2.0',
      mode: 'Microservices',
      storage: { type: 's3', s3: { bucket: 'logs', secret: { name: 's3-creds' } } },
      components: { ingester: { replicas: 5 } },
    });
    expect(parsed.ok && parsed.spec.components.ingester).toEqual({ replicas: 5, resources: {} });
    expect(parsed.ok && parsed.spec.storage.s3).toEqual({
      bucket: 'logs',
      forcePathStyle: false,
      insecure: false,
      secret: {
        name: 's3-creds',
        accessKeyIdKey: 'AWS_ACCESS_KEY_ID',
        secretAccessKeyKey: 'AWS_SECRET_ACCESS_KEY',
      },
    });
  });

  it("fills in a size preset's replicas, requests, replication factor and limits", () => {
    const parsed = parseSpec({
      version: '1',
      mode: 'Microservices',
      size: '1x.small',
      storage: { sharedClaimName: 'x' },
    });
    if (!parsed.ok) throw new Error(formatIssues(parsed.issues));
    const { spec } = parsed;
    expect(spec.replicationFactor).toBe(2);
    expect(spec.components.ingester).toEqual({
      replicas: 2,
      resources: { requests: { cpu: '4', memory: '20Gi' } },
    });
    expect(spec.components.indexGateway.replicas).toBe(2);
    expect(spec.components.compactor).toEqual({
      replicas: 1,
      resources: { requests: { cpu: '2', memory: '4Gi' } },
    });
    // The query scheduler has no LokiStack size: it keeps its default.
    expect(spec.components.queryScheduler).toEqual({ replicas: 1, resources: {} });
    expect(spec.limits.global).toMatchObject({
      ingestionRateMB: 15,
      ingestionBurstSizeMB: 20,
      maxGlobalStreamsPerUser: 10000,
      queryTimeout: '3m',
    });
  });

  it('keeps every field written over the preset, down to one request', () => {
    const parsed = parseSpec({
      version: '1',
      mode: 'Microservices',
      size: '1x.medium',
      storage: { sharedClaimName: 'x' },
      replicationFactor: 3,
      components: {
        ingester: { replicas: 4, resources: { requests: { memory: '8Gi' } } },
        querier: { resources: { limits: { memory: '12Gi' } } },
      },
      limits: { global: { ingestionRateMB: 8 } },
    });
    if (!parsed.ok) throw new Error(formatIssues(parsed.issues));
    const { spec } = parsed;
    expect(spec.replicationFactor).toBe(3);
    expect(spec.components.ingester).toEqual({
      replicas: 4,
      resources: { requests: { cpu: '6', memory: '8Gi' } },
    });
    expect(spec.components.querier).toEqual({
      replicas: 3,
      resources: { requests: { cpu: '6', memory: '10Gi' }, limits: { memory: '12Gi' } },
    });
    expect(spec.limits.global).toMatchObject({ ingestionRateMB: 8, ingestionBurstSizeMB: 20 });
  });

  it('gives 1x.demo one of each, replication factor 1 and no requests', () => {
    const parsed = parseSpec({
      version: '1',
      mode: 'Microservices',
      size: '1x.demo',
      storage: { sharedClaimName: 'x' },
    });
    if (!parsed.ok) throw new Error(formatIssues(parsed.issues));
    expect(parsed.spec.replicationFactor).toBe(1);
    expect(parsed.spec.components.ingester).toEqual({ replicas: 1, resources: {} });
    expect(parsed.spec.components.distributor.replicas).toBe(1);
  });

  it.each([
    [{}, 'spec.version: is required'],
    [
      { version: '1', size: '2x.huge' },
      'spec.size: must be one of 1x.demo, 1x.pico, 1x.extra-small, 1x.small, 1x.medium, got "2x.huge"',
    ],
    [
      { version: '1', mode: 'Distributed' },
      'spec.mode: must be one of SingleBinary, SimpleScalable, Microservices, got "Distributed"',
    ],
    [{ version: '1', replicationFactor: 0 }, 'spec.replicationFactor: must be at least 1'],
    [
      { version: '1', replicationFactor: 2.5 },
      'spec.replicationFactor: expected an integer, got 2.5',
    ],
    [
      { version: '1', storage: { size: '10 gigs' } },
      'spec.storage.size: expected a Kubernetes quantity',
    ],
    [
      { version: '1', limits: { global: { maxLineSize: 'big' } } },
      'spec.limits.global.maxLineSize: expected a size like 512KB',
    ],
    [
      { version: '1', limits: { tenants: { a: { queryTimeout: '5 minutes' } } } },
      'spec.limits.tenants.a.queryTimeout: expected a duration',
    ],
    [{ version: '1', replicas: 3 }, 'spec.replicas: unknown field'],
    [{ version: '1', zones: ['a', 'a'] }, 'spec.zones: has duplicate items'],
    [
      { version: '1', ring: { etcdEndpoints: ['http://etcd:2379'] } },
      'spec.ring.etcdEndpoints[0]: expected host:port',
    ],
    [{ version: '1', tls: {} }, 'spec.tls.secretName: is required'],
    [
      { version: '1', tls: { secretName: 'Logs_TLS' } },
      'spec.tls.secretName: expected a DNS label',
    ],
    [
      { version: '1', tls: { secretName: 'logs-tls', mutual: 'yes' } },
      'spec.tls.mutual: expected true or false, got "yes"',
    ],
  ])('refuses %j', (raw, message) => {
    expect(issuesOf(raw)).toContain(message);
  });

  it.each([
    [
      { mode: 'Microservices' },
      'spec.storage.sharedClaimName: is required with storage.type filesystem in mode Microservices',
    ],
    [{ storage: { type: 's3' } }, 'spec.storage.s3: is required with storage.type s3'],
    [
      { mode: 'SimpleScalable', storage: { sharedClaimName: 'x' }, ring: { store: 'etcd' } },
      'spec.ring.etcdEndpoints: needs at least one endpoint',
    ],
    [{ zones: ['a', 'b'] }, 'spec.zones: zone-aware ingesters need mode Microservices'],
    [
      {
        mode: 'Microservices',
        storage: { sharedClaimName: 'x' },
        components: { ingester: { replicas: 2 } },
      },
      'spec.replicationFactor: is 3 but only 2 ingesters would run',
    ],
    [
      { limits: { global: { retentionPeriod: '744h' } } },
      'spec.retention.enabled: must be true when a retentionPeriod is set',
    ],
    [
      { retention: { enabled: true }, compactor: { enabled: false } },
      'spec.retention.enabled: retention runs in the compactor',
    ],
    [{ ring: { managed: { replicas: 2 } } }, 'spec.ring.managed.replicas: must be 1 or 3'],
    [{ version: 'v1.0+build' }, 'spec.version: "v1.0+build" is not a label value'],
    [{ version: `1.${'0'.repeat(62)}` }, 'is not a label value'],
    [{ size: '1x.demo' }, 'spec.size: presets size the components of mode Microservices'],
    [
      { limits: { tenants: { '*': { maxQuerySeries: 5 } } } },
      'spec.limits.tenants.*: is not a tenant ID: limits for every tenant go in limits.global',
    ],
    [
      { rules: { selector: { matchExpressions: [{ key: 'team', operator: 'In' }] } } },
      'spec.rules.selector.matchExpressions[0].values: must have at least one value with operator In',
    ],
    [
      {
        rules: {
          selector: {},
          namespaceSelector: {
            matchExpressions: [{ key: 'team', operator: 'Exists', values: ['a'] }],
          },
        },
      },
      'spec.rules.namespaceSelector.matchExpressions[0].values: must be empty with operator Exists',
    ],
    [
      { rules: { selector: { matchExpressions: [{ key: 'a b', operator: 'DoesNotExist' }] } } },
      'spec.rules.selector.matchExpressions[0].key: "a b" is not a label key',
    ],
    [
      { rules: { selector: { matchLabels: { team: 'a,b' } } } },
      'spec.rules.selector.matchLabels.team: "a,b" is not a label value',
    ],
  ])('reports the cross-field rule broken by %j', (raw, message) => {
    expect(issuesOf({ version: '1', ...raw })).toContain(message);
  });

  it('takes matchExpressions with the operators of Kubernetes label selectors', () => {
    const parsed = parseSpec({
      version: '1',
      rules: {
        selector: {
          matchLabels: { 'logsvc.io/kind': 'alerts' },
          matchExpressions: [
            { key: 'team', operator: 'In', values: ['a', 'b'] },
            { key: 'stage', operator: 'NotIn', values: ['dev'] },
            { key: 'owner', operator: 'Exists' },
            { key: 'draft', operator: 'DoesNotExist', values: [] },
          ],
        },
      },
    });
    expect(parsed.ok).toBe(true);
    expect(
      issuesOf({
        version: '1',
        rules: { selector: { matchExpressions: [{ key: 'team', operator: 'Has' }] } },
      }),
    ).toContain('spec.rules.selector.matchExpressions[0].operator');
  });

  it('leaves TLS off unless spec.tls names a Secret, and makes it mutual by default', () => {
    const plain = parseSpec({ version: '1' });
    expect(plain.ok && plain.spec.tls).toBeUndefined();
    const tls = parseSpec({ version: '1', tls: { secretName: 'logs-tls' } });
    expect(tls.ok && tls.spec.tls).toEqual({ secretName: 'logs-tls', mutual: true });
    const oneWay = parseSpec({ version: '1', tls: { secretName: 'logs-tls', mutual: false } });
    expect(oneWay.ok && oneWay.spec.tls).toEqual({ secretName: 'logs-tls', mutual: false });
  });

  it('accepts zones when each zone holds enough ingesters for the replication factor', () => {
    const parsed = parseSpec({
      version: '1',
      mode: 'Microservices',
      zones: ['a', 'b', 'c'],
      storage: { sharedClaimName: 'shared' },
      components: { ingester: { replicas: 1 } },
    });
    expect(parsed.ok).toBe(true);
  });
});
