import {
  effectiveReplicationFactor,
  loadConfig,
  parseRuntimeConfig,
  resolveRingConfig,
  validateConfig,
} from '@logsvc/config';
import { parseSpec, type LogServiceSpec } from '@logsvc/operator-api';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Manifest } from './manifest';
import { renderAll } from './render';
import { entryComponents } from './components';
import { configDocument } from './config';
import { LOGSERVICE_FILE_ENV } from './logservice-file';
import { LOGSERVICE_FILE_ENV as SERVER_LOGSERVICE_FILE_ENV } from '@logsvc/api/browser';

const owner = { name: 'logs', namespace: 'team-a', uid: '6d1c0c1e-1111-2222-3333-444455556666' };
const v1beta1 = { pdbApiVersion: 'policy/v1beta1' } as const;

function specOf(raw: Record<string, unknown>): LogServiceSpec {
  const parsed = parseSpec({ version: '0.1.0', ...raw });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.spec;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk manifests freely
type Loose = any;
const find = (manifests: Manifest[], kind: string, name: string) => {
  const m = manifests.find((x) => x.kind === kind && x.metadata.name === name);
  if (!m)
    throw new Error(
      `no ${kind} ${name} in ${manifests.map((x) => `${x.kind}/${x.metadata.name}`).join(' ')}`,
    );
  return m as Manifest & { spec: Loose; data?: Record<string, string> };
};
const names = (manifests: Manifest[]) => manifests.map((m) => `${m.kind}/${m.metadata.name}`);
const configOf = (manifests: Manifest[]) => find(manifests, 'ConfigMap', 'logs-config').data!;
const containerOf = (workload: { spec: Loose }) => workload.spec.template.spec.containers[0];

/** Loads the rendered config.yaml the way a pod starts logsvc: the container's args and env. */
function loadAsPod(
  manifests: Manifest[],
  workloadKind: string,
  name: string,
  env: Record<string, string>,
) {
  const files = configOf(manifests);
  const container = containerOf(find(manifests, workloadKind, name));
  const config = loadConfig(container.args, {
    readFile: (path) => {
      expect(path).toBe('/etc/logsvc/config.yaml');
      return files['config.yaml'];
    },
    env,
  });
  validateConfig(config);
  return config;
}

describe('renderAll: single binary', () => {
  const spec = specOf({ storage: { size: '20Gi', storageClassName: 'fast' } });
  const { manifests, components } = renderAll(owner, spec, v1beta1);

  it('renders a ConfigMap, Services and one OnDelete StatefulSet with a volume', () => {
    expect(names(manifests)).toEqual([
      'ConfigMap/logs-config',
      'Service/logs-single-binary',
      'Service/logs-single-binary-headless',
      'StatefulSet/logs-single-binary',
    ]);
    expect(components.map((c) => [c.name, c.ringRollout])).toEqual([['logs-single-binary', true]]);
    const sts = find(manifests, 'StatefulSet', 'logs-single-binary');
    expect(sts.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(sts.spec.serviceName).toBe('logs-single-binary-headless');
    expect(sts.spec.volumeClaimTemplates[0].spec).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '20Gi' } },
      storageClassName: 'fast',
    });
    expect(containerOf(sts).image).toBe('logsvc/logsvc:0.1.0');
    expect(containerOf(sts).args).toContain('-target=all');
  });

  it('renders a config logsvc starts with: in-memory ring, data on the volume, RF 1', () => {
    const config = loadAsPod(manifests, 'StatefulSet', 'logs-single-binary', {});
    expect(config.common.path_prefix).toBe('/var/logsvc');
    expect(config.storage_config.filesystem.directory).toBe('/var/logsvc/chunks');
    expect(config.auth_enabled).toBe(true);
    expect(resolveRingConfig(config, 'ingester').kvstore.store).toBe('inmemory');
    expect(effectiveReplicationFactor(config)).toBe(1);
    expect(config.runtime_config.file).toBe('/etc/logsvc/runtime.yaml');
  });

  it('owns every object, so deleting the LogService deletes them', () => {
    for (const m of manifests) {
      expect(m.metadata.namespace).toBe('team-a');
      expect(m.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'logsvc.io/v1alpha1',
          kind: 'LogService',
          name: 'logs',
          uid: owner.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
  });
});

describe('renderAll: microservices', () => {
  const spec = specOf({
    mode: 'Microservices',
    storage: { sharedClaimName: 'logs-shared' },
    components: { distributor: { replicas: 2 }, querier: { replicas: 1 } },
    limits: { global: { ingestionRateMB: 8, maxLineSize: '1MB' } },
  });
  const { manifests } = renderAll(owner, spec, v1beta1);
  const env = (pod: string) => ({ POD_NAME: pod, POD_IP: '10.1.2.3' });

  it('renders etcd, every component, their Services and disruption budgets', () => {
    expect(names(manifests)).toEqual([
      'ConfigMap/logs-config',
      'Service/logs-etcd-headless',
      'Service/logs-etcd',
      'StatefulSet/logs-etcd',
      'Service/logs-ingester',
      'Service/logs-ingester-headless',
      'Service/logs-compactor',
      'Service/logs-compactor-headless',
      'Service/logs-distributor',
      'Service/logs-query-scheduler',
      'Service/logs-querier',
      'Service/logs-query-frontend',
      'StatefulSet/logs-ingester',
      'StatefulSet/logs-compactor',
      'Deployment/logs-distributor',
      'Deployment/logs-query-scheduler',
      'Deployment/logs-querier',
      'Deployment/logs-query-frontend',
      'PodDisruptionBudget/logs-ingester',
      'PodDisruptionBudget/logs-distributor',
    ]);
    const pdb = find(manifests, 'PodDisruptionBudget', 'logs-ingester');
    expect(pdb.apiVersion).toBe('policy/v1beta1');
    expect(pdb.spec).toEqual({
      maxUnavailable: 1,
      selector: {
        matchLabels: {
          'app.kubernetes.io/name': 'logsvc',
          'app.kubernetes.io/instance': 'logs',
          'app.kubernetes.io/component': 'ingester',
        },
      },
    });
    expect(
      renderAll(owner, spec, { pdbApiVersion: 'policy/v1' }).manifests.find(
        (m) => m.kind === 'PodDisruptionBudget',
      )!.apiVersion,
    ).toBe('policy/v1');
  });

  it('puts a query frontend in front of the queriers, which find the schedulers by their ring', () => {
    expect(entryComponents(spec).query).toBe('query-frontend');
    expect(containerOf(find(manifests, 'Deployment', 'logs-query-frontend')).args).toContain(
      '-target=query-frontend',
    );
    expect(containerOf(find(manifests, 'Deployment', 'logs-query-scheduler')).args).toContain(
      '-target=query-scheduler',
    );
    const config = configDocument('logs', spec) as Record<string, unknown>;
    expect(config.query_scheduler).toEqual({ use_scheduler_ring: true });
    // Without schedulers, the queriers pull from the frontend's Service.
    const noScheduler = specOf({
      mode: 'Microservices',
      storage: { sharedClaimName: 'logs-shared' },
      components: { queryScheduler: { replicas: 0 } },
    });
    const names2 = names(renderAll(owner, noScheduler, v1beta1).manifests);
    expect(names2).toContain('Deployment/logs-query-frontend');
    expect(names2).not.toContain('Deployment/logs-query-scheduler');
    expect(configDocument('logs', noScheduler)).toMatchObject({
      frontend_worker: { frontend_address: 'logs-query-frontend:9095' },
    });
    // Without a frontend, the queriers answer reads themselves.
    const direct = specOf({
      mode: 'Microservices',
      storage: { sharedClaimName: 'logs-shared' },
      components: { queryFrontend: { replicas: 0 } },
    });
    const names3 = names(renderAll(owner, direct, v1beta1).manifests);
    expect(names3.filter((n) => n.includes('query-'))).toEqual([]);
    expect(entryComponents(direct).query).toBe('querier');
    expect(configDocument('logs', direct)).not.toHaveProperty('query_scheduler');
  });

  it('gives ingesters OnDelete, a preStop prepare_shutdown, a flush grace period and /ready', () => {
    const sts = find(manifests, 'StatefulSet', 'logs-ingester');
    expect(sts.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(sts.spec.replicas).toBe(3);
    const pod = sts.spec.template.spec;
    expect(pod.terminationGracePeriodSeconds).toBe(300);
    const c = containerOf(sts);
    // The process's own deadline for its final flush or checkpoint, within the pod's.
    expect(c.args).toContain('-server.graceful-shutdown-timeout=270s');
    const overridden = specOf({
      mode: 'Microservices',
      storage: { sharedClaimName: 'logs-shared' },
      configOverrides: { server: { graceful_shutdown_timeout: '1m' } },
    });
    const rendered = renderAll(owner, overridden, v1beta1).manifests;
    const own = containerOf(find(rendered, 'StatefulSet', 'logs-ingester'));
    expect(own.args.filter((a: string) => a.startsWith('-server.graceful'))).toEqual([]);
    const distributor = containerOf(find(manifests, 'Deployment', 'logs-distributor'));
    expect(distributor.args.filter((a: string) => a.startsWith('-server.graceful'))).toEqual([]);
    expect(c.lifecycle.preStop.exec.command.join(' ')).toContain('/ingester/prepare_shutdown');
    expect(c.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'http' });
    expect(c.volumeMounts).toContainEqual({ name: 'shared', mountPath: '/var/logsvc-shared' });
    expect(pod.volumes).toContainEqual({
      name: 'shared',
      persistentVolumeClaim: { claimName: 'logs-shared' },
    });
  });

  it('rolls stateless components with surge and stateful non-ingesters by the StatefulSet', () => {
    const deploy = find(manifests, 'Deployment', 'logs-distributor');
    expect(deploy.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
    });
    expect(containerOf(deploy).lifecycle).toBeUndefined();
    expect(find(manifests, 'StatefulSet', 'logs-compactor').spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
    });
    expect(find(manifests, 'Service', 'logs-ingester-headless').spec).toMatchObject({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
    });
  });

  it.each([
    ['StatefulSet', 'logs-ingester', 'ingester'],
    ['Deployment', 'logs-distributor', 'distributor'],
    ['Deployment', 'logs-querier', 'ingester'],
    ['StatefulSet', 'logs-compactor', 'compactor'],
  ] as const)('renders a config a %s %s starts with, on the etcd ring', (kind, name, ring) => {
    const config = loadAsPod(manifests, kind, name, env(`${name}-0`));
    const member = resolveRingConfig(config, ring);
    expect(member.kvstore.store).toBe('etcd');
    expect(member.kvstore.etcd.endpoints).toEqual(['logs-etcd:2379']);
    expect(member.instanceAddr).toBe('10.1.2.3');
    expect(member.instanceId).toBe(`${name}-0`);
    expect(member.instancePort).toBe(9095);
    expect(config.storage_config.filesystem.directory).toBe('/var/logsvc-shared/chunks');
    expect(config.limits_config.ingestion_rate_mb).toBe(8);
    expect(config.limits_config.max_line_size).toBe(1024 * 1024);
  });

  it('uses existing etcd endpoints when asked', () => {
    const external = renderAll(
      owner,
      specOf({ ...spec, ring: { store: 'etcd', etcdEndpoints: ['etcd.infra:2379'] } }),
      v1beta1,
    );
    expect(names(external.manifests).some((n) => n.includes('etcd'))).toBe(false);
    const config = loadAsPod(
      external.manifests,
      'StatefulSet',
      'logs-ingester',
      env('logs-ingester-0'),
    );
    expect(resolveRingConfig(config, 'ingester').kvstore.etcd.endpoints).toEqual([
      'etcd.infra:2379',
    ]);
  });
});

describe('renderAll: config changes and pod rollouts', () => {
  const base = { mode: 'SimpleScalable', storage: { sharedClaimName: 'shared' } };
  const hashOf = (raw: Record<string, unknown>) => renderAll(owner, specOf(raw), v1beta1);
  const podHash = (r: ReturnType<typeof hashOf>) =>
    find(r.manifests, 'StatefulSet', 'logs-write').spec.template.metadata.annotations[
      'logsvc.io/config-hash'
    ];

  it("has the read pods queue on the backend pods' schedulers, found by their ring", () => {
    expect(configDocument('logs', specOf(base))).toMatchObject({
      query_scheduler: { use_scheduler_ring: true },
    });
  });

  it('puts the config hash on pod templates: a config change changes every template', () => {
    const a = hashOf(base);
    const b = hashOf({ ...base, limits: { global: { maxQuerySeries: 100 } } });
    expect(podHash(a)).toBe(a.configHash);
    expect(a.configHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.configHash).not.toBe(a.configHash);
    expect(podHash(b)).toBe(b.configHash);
  });

  it('changes only runtime.yaml, not the hash, for tenant limits (logsvc re-reads them)', () => {
    const a = hashOf(base);
    const b = hashOf({
      ...base,
      limits: { tenants: { 'team-b': { ingestionRateMB: 2, retentionPeriod: '168h' } } },
      retention: { enabled: true },
    });
    expect(configOf(b.manifests)['runtime.yaml']).not.toBe(configOf(a.manifests)['runtime.yaml']);
    const overrides = parseRuntimeConfig(configOf(b.manifests)['runtime.yaml'], 'runtime.yaml');
    expect(overrides.get('team-b')).toEqual({
      ingestion_rate_mb: 2,
      retention_period: 168 * 3600_000,
    });
    // retention.enabled changes config.yaml (compactor.retention_enabled): that one rolls.
    expect(b.configHash).not.toBe(a.configHash);
    const c = hashOf({ ...base, limits: { tenants: { 'team-c': { ingestionRateMB: 1 } } } });
    expect(c.configHash).toBe(a.configHash);
  });

  it('changes the image but not the config for a new version', () => {
    const a = hashOf(base);
    const b = renderAll(owner, specOf({ ...base, version: '0.2.0' }), v1beta1);
    expect(b.configHash).toBe(a.configHash);
    const sts = find(b.manifests, 'StatefulSet', 'logs-write');
    expect(containerOf(sts).image).toBe('logsvc/logsvc:0.2.0');
    expect(sts.spec.template.metadata.labels['app.kubernetes.io/version']).toBe('0.2.0');
    expect(sts.spec.selector.matchLabels['app.kubernetes.io/version']).toBeUndefined();
  });
});

describe('renderAll: the LogService beside its config, for the admin UI', () => {
  const stored = {
    version: '0.1.0',
    mode: 'SimpleScalable',
    storage: { sharedClaimName: 'shared' },
  };
  const at = (generation: number, raw: Record<string, unknown>) =>
    renderAll({ ...owner, generation }, specOf(raw), v1beta1, raw);

  it('copies identity and stored spec into logservice.yaml, named to every logsvc container', () => {
    const { manifests } = at(7, stored);
    expect(parse(configOf(manifests)['logservice.yaml'])).toEqual({
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogService',
      metadata: { name: 'logs', namespace: 'team-a', generation: 7 },
      spec: stored,
    });
    for (const [kind, name] of [
      ['StatefulSet', 'logs-write'],
      ['StatefulSet', 'logs-backend'],
      ['Deployment', 'logs-read'],
    ]) {
      const workload = find(manifests, kind, name);
      expect(containerOf(workload).env).toContainEqual({
        name: LOGSERVICE_FILE_ENV,
        value: '/etc/logsvc/logservice.yaml',
      });
      // ... a file of the mounted config volume.
      expect(containerOf(workload).volumeMounts).toContainEqual({
        name: 'config',
        mountPath: '/etc/logsvc',
        readOnly: true,
      });
      expect(workload.spec.template.spec.volumes).toContainEqual({
        name: 'config',
        configMap: { name: 'logs-config' },
      });
    }
  });

  it('rolls no pod for a spec change that renders the same config.yaml', () => {
    const a = at(1, stored);
    const b = at(2, { ...stored, limits: { tenants: { 'team-c': { ingestionRateMB: 1 } } } });
    expect(configOf(b.manifests)['logservice.yaml']).not.toBe(
      configOf(a.manifests)['logservice.yaml'],
    );
    expect(b.configHash).toBe(a.configHash);
    const template = (r: typeof a) => find(r.manifests, 'StatefulSet', 'logs-write').spec.template;
    expect(template(b)).toEqual(template(a));
  });

  it('falls back to the parsed spec, and leaves out an unknown generation', () => {
    const { manifests } = renderAll(owner, specOf(stored), v1beta1);
    const file = parse(configOf(manifests)['logservice.yaml']);
    expect(file.metadata).toEqual({ name: 'logs', namespace: 'team-a' });
    expect(file.spec.mode).toBe('SimpleScalable');
    expect(file.spec.components.write.replicas).toBeGreaterThan(0);
  });

  it('uses the variable name the server reads', () => {
    expect(LOGSERVICE_FILE_ENV).toBe(SERVER_LOGSERVICE_FILE_ENV);
  });
});

describe('renderAll: zones and S3', () => {
  const spec = specOf({
    mode: 'Microservices',
    zones: ['zone-a', 'zone-b', 'zone-c'],
    components: { ingester: { replicas: 1 } },
    compactor: { enabled: false },
    storage: {
      type: 's3',
      s3: {
        bucket: 'logs',
        endpoint: 'minio:9000',
        forcePathStyle: true,
        insecure: true,
        secret: { name: 'minio' },
      },
    },
  });
  const { manifests, components } = renderAll(owner, spec, v1beta1);

  it('renders one ingester StatefulSet per zone, pinned to its nodes', () => {
    expect(components.filter((c) => c.ringRollout).map((c) => c.name)).toEqual([
      'logs-ingester-zone-a',
      'logs-ingester-zone-b',
      'logs-ingester-zone-c',
    ]);
    const sts = find(manifests, 'StatefulSet', 'logs-ingester-zone-b');
    expect(sts.spec.template.spec.nodeSelector).toEqual({
      'topology.kubernetes.io/zone': 'zone-b',
    });
    expect(sts.spec.selector.matchLabels['logsvc.io/zone']).toBe('zone-b');
    const config = loadAsPod(manifests, 'StatefulSet', 'logs-ingester-zone-b', {
      POD_NAME: 'x',
      POD_IP: '10.0.0.1',
    });
    const member = resolveRingConfig(config, 'ingester');
    expect(member.zone).toBe('zone-b');
    expect(member.zoneAwarenessEnabled).toBe(true);
    // One disruption budget over all zones.
    expect(
      names(manifests).filter((n) => n.startsWith('PodDisruptionBudget/logs-ingester')),
    ).toEqual(['PodDisruptionBudget/logs-ingester']);
  });

  it('reads S3 credentials from the Secret into the config', () => {
    const c = containerOf(find(manifests, 'Deployment', 'logs-querier'));
    expect(c.env).toContainEqual({
      name: 'S3_SECRET_ACCESS_KEY',
      valueFrom: { secretKeyRef: { name: 'minio', key: 'AWS_SECRET_ACCESS_KEY' } },
    });
    expect(c.volumeMounts.some((m: { name: string }) => m.name === 'shared')).toBe(false);
    const config = loadAsPod(manifests, 'Deployment', 'logs-querier', {
      POD_NAME: 'q',
      POD_IP: '10.0.0.2',
      S3_ACCESS_KEY_ID: 'AK',
      S3_SECRET_ACCESS_KEY: 'SK',
    });
    expect(config.storage_config.aws).toMatchObject({
      bucketnames: 'logs',
      endpoint: 'minio:9000',
      access_key_id: 'AK',
      secret_access_key: 'SK',
      s3forcepathstyle: true,
      insecure: true,
    });
    expect(config.schema_config.configs[0].object_store).toBe('s3');
    expect(config.ruler.storage.type).toBe('s3');
    expect(parse(configOf(manifests)['config.yaml']).storage_config.aws.secret_access_key).toBe(
      '${S3_SECRET_ACCESS_KEY}',
    );
  });
});

describe('renderAll: placement per component', () => {
  const base = {
    mode: 'Microservices',
    storage: { sharedClaimName: 'shared' },
  };
  const podSpec = (manifests: Manifest[], kind: string, name: string) =>
    find(manifests, kind, name).spec.template.spec;

  it('spreads ingesters over nodes and zones by default, and nothing else', () => {
    const { manifests } = renderAll(owner, specOf(base), v1beta1);
    const selector = {
      matchLabels: {
        'app.kubernetes.io/name': 'logsvc',
        'app.kubernetes.io/instance': 'logs',
        'app.kubernetes.io/component': 'ingester',
      },
    };
    expect(podSpec(manifests, 'StatefulSet', 'logs-ingester').topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: selector,
      },
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: selector,
      },
    ]);
    const querier = podSpec(manifests, 'Deployment', 'logs-querier');
    expect(querier.topologySpreadConstraints).toBeUndefined();
    expect(querier.nodeSelector).toBeUndefined();
  });

  it('takes nodeSelector, tolerations, affinity, spread and priority class per component', () => {
    const toleration = { key: 'dedicated', operator: 'Equal', value: 'logs', effect: 'NoSchedule' };
    const affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { a: 'b' } } },
        ],
      },
    };
    const { manifests } = renderAll(
      owner,
      specOf({
        ...base,
        zones: ['zone-a', 'zone-b', 'zone-c'],
        replicationFactor: 3,
        components: {
          ingester: {
            replicas: 1,
            nodeSelector: { pool: 'logs' },
            tolerations: [toleration],
            topologySpreadConstraints: [],
            priorityClassName: 'logs-critical',
          },
          queryFrontend: { affinity },
        },
      }),
      v1beta1,
    );
    const ingester = podSpec(manifests, 'StatefulSet', 'logs-ingester-zone-b');
    expect(ingester.nodeSelector).toEqual({
      pool: 'logs',
      'topology.kubernetes.io/zone': 'zone-b',
    });
    expect(ingester.tolerations).toEqual([toleration]);
    expect(ingester.topologySpreadConstraints).toBeUndefined();
    expect(ingester.priorityClassName).toBe('logs-critical');
    expect(podSpec(manifests, 'Deployment', 'logs-query-frontend').affinity).toEqual(affinity);
    expect(podSpec(manifests, 'Deployment', 'logs-querier').affinity).toBeUndefined();
  });
});

describe('renderAll: template hashes', () => {
  it('annotates each workload with the hash of its pod template, changing with it', () => {
    const spec = { mode: 'Microservices', storage: { sharedClaimName: 'shared' } };
    const hashOf = (raw: Record<string, unknown>, kind: string, name: string) =>
      find(renderAll(owner, specOf(raw), v1beta1).manifests, kind, name).metadata.annotations?.[
        'logsvc.io/template-hash'
      ];
    const before = hashOf(spec, 'StatefulSet', 'logs-ingester');
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(spec, 'StatefulSet', 'logs-ingester')).toBe(before);
    expect(hashOf({ ...spec, version: '0.2.0' }, 'StatefulSet', 'logs-ingester')).not.toBe(before);
    // Replicas are not in the template.
    expect(
      hashOf(
        { ...spec, components: { ingester: { replicas: 4 } } },
        'StatefulSet',
        'logs-ingester',
      ),
    ).toBe(before);
  });
});
