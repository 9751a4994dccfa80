import {
  DEFAULT_LIMITS,
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
      'ServiceAccount/logs-logsvc',
      'Role/logs-logsvc',
      'RoleBinding/logs-logsvc',
      'Service/logs-single-binary',
      'Service/logs-single-binary-headless',
      'StatefulSet/logs-single-binary',
    ]);
    expect(components.map((c) => [c.name, c.ringRollout])).toEqual([['logs-single-binary', true]]);
    // The pods run as their own ServiceAccount, which may only get this LogService.
    expect(find(manifests, 'StatefulSet', 'logs-single-binary').spec.template.spec).toMatchObject({
      serviceAccountName: 'logs-logsvc',
    });
    expect(find(manifests, 'Role', 'logs-logsvc').rules).toEqual([
      {
        apiGroups: ['logsvc.io'],
        resources: ['logservices'],
        resourceNames: ['logs'],
        verbs: ['get'],
      },
    ]);
    expect(find(manifests, 'RoleBinding', 'logs-logsvc')).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'logs-logsvc' },
      subjects: [{ kind: 'ServiceAccount', name: 'logs-logsvc', namespace: owner.namespace }],
    });
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
  const raw = {
    mode: 'Microservices',
    storage: { sharedClaimName: 'logs-shared' },
    components: { distributor: { replicas: 2 }, querier: { replicas: 1 } },
    limits: { global: { ingestionRateMB: 8, maxLineSize: '1MB' } },
  };
  const spec = specOf(raw);
  const { manifests } = renderAll(owner, spec, v1beta1);
  const env = (pod: string) => ({ POD_NAME: pod, POD_IP: '10.1.2.3' });

  it('renders etcd, every component, their Services and disruption budgets', () => {
    expect(names(manifests)).toEqual([
      'ConfigMap/logs-config',
      'ServiceAccount/logs-logsvc',
      'Role/logs-logsvc',
      'RoleBinding/logs-logsvc',
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
      'PodDisruptionBudget/logs-etcd',
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

  it('runs 3 etcd members by default, all starting at once with stable peer names', () => {
    const etcd = find(manifests, 'StatefulSet', 'logs-etcd');
    expect(etcd.spec.replicas).toBe(3);
    expect(etcd.spec.updateStrategy).toEqual({ type: 'RollingUpdate' });
    expect(containerOf(etcd).command).toEqual(
      expect.arrayContaining([
        '--initial-cluster=logs-etcd-0=http://logs-etcd-0.logs-etcd-headless:2380,logs-etcd-1=http://logs-etcd-1.logs-etcd-headless:2380,logs-etcd-2=http://logs-etcd-2.logs-etcd-headless:2380',
        '--initial-cluster-state=new',
      ]),
    );
    expect(find(manifests, 'PodDisruptionBudget', 'logs-etcd').spec).toMatchObject({
      maxUnavailable: 1,
      selector: { matchLabels: { 'app.kubernetes.io/component': 'etcd' } },
    });
  });

  it('renders a growing etcd step: the added member joins the running cluster, the others stay', () => {
    const growing = renderAll(owner, spec, v1beta1, spec, {
      etcd: { members: 2, initialClusterState: 'existing', partition: 1 },
    }).manifests;
    const etcd = find(growing, 'StatefulSet', 'logs-etcd');
    expect(etcd.spec.replicas).toBe(2);
    expect(etcd.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 1 },
    });
    expect(containerOf(etcd).command).toEqual(
      expect.arrayContaining([
        '--initial-cluster=logs-etcd-0=http://logs-etcd-0.logs-etcd-headless:2380,logs-etcd-1=http://logs-etcd-1.logs-etcd-headless:2380',
        '--initial-cluster-state=existing',
      ]),
    );
    const single = renderAll(
      owner,
      specOf({ ...raw, ring: { managed: { replicas: 1 } } }),
      v1beta1,
    ).manifests;
    expect(find(single, 'StatefulSet', 'logs-etcd').spec.replicas).toBe(1);
    expect(names(single)).not.toContain('PodDisruptionBudget/logs-etcd');
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

  it('runs the admin UI in the ruler pods, else in the compactor pod, else nowhere', () => {
    const targetOf = (m: Manifest[], kind: string, name: string) =>
      (containerOf(find(m, kind, name)).args as string[]).find((a) => a.startsWith('-target='));
    const targets = (m: Manifest[]) =>
      m
        .filter((x) => x.kind === 'Deployment' || x.kind === 'StatefulSet')
        .map((x) =>
          ((containerOf(x as Loose).args ?? []) as string[]).find((a) => a.startsWith('-target=')),
        );
    // Default: no ruler, so the compactor's pod serves /ui/ (its Delete requests page works).
    expect(targetOf(manifests, 'StatefulSet', 'logs-compactor')).toBe('-target=compactor,ui');
    expect(targets(manifests).filter((t) => t?.includes('ui'))).toEqual(['-target=compactor,ui']);
    expect(
      loadAsPod(manifests, 'StatefulSet', 'logs-compactor', env('logs-compactor-0')).target,
    ).toBe('compactor,ui');
    // With the ruler, its pods run it (the Rules page works) and the compactor's no longer does.
    const withRuler = renderAll(
      owner,
      specOf({ ...raw, ruler: { enabled: true } }),
      v1beta1,
    ).manifests;
    expect(targetOf(withRuler, 'Deployment', 'logs-ruler')).toBe('-target=ruler,ui');
    expect(targets(withRuler).filter((t) => t?.includes('ui'))).toEqual(['-target=ruler,ui']);
    expect(loadAsPod(withRuler, 'Deployment', 'logs-ruler', env('logs-ruler-0')).target).toBe(
      'ruler,ui',
    );
    // Neither: no pod runs the UI.
    const neither = renderAll(
      owner,
      specOf({ ...raw, compactor: { enabled: false } }),
      v1beta1,
    ).manifests;
    expect(targets(neither).filter((t) => t?.includes('ui'))).toEqual([]);
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
    // Global limits are in runtime.yaml (every tenant), not in limits_config.
    expect(config.limits_config.ingestion_rate_mb).toBe(DEFAULT_LIMITS.ingestion_rate_mb);
    expect(
      parseRuntimeConfig(configOf(manifests)['runtime.yaml'], 'runtime.yaml').get('*'),
    ).toEqual({ ingestion_rate_mb: 8, max_line_size: 1024 * 1024 });
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

describe('renderAll: LogServiceRules in the ruler', () => {
  const rules = [
    { namespace: 'team-a', name: 'errors', tenant: 'tenant-1', file: 'groups:\n  - name: g\n' },
    { namespace: 'infra', name: 'slo', tenant: 'tenant-2', file: 'groups:\n  - name: h\n' },
  ];
  const micro = {
    mode: 'Microservices',
    storage: { sharedClaimName: 'shared' },
    ruler: { enabled: true },
    rules: { selector: { matchLabels: { team: 'a' } } },
  };
  const volumeOf = (workload: { spec: Loose }, name: string) =>
    workload.spec.template.spec.volumes.find((v: Loose) => v.name === name);

  it("writes each rule file into <ls>-rules and mounts it as the ruler's local storage", () => {
    const r = renderAll(owner, specOf(micro), v1beta1, undefined, { rules });
    expect(find(r.manifests, 'ConfigMap', 'logs-rules').data).toEqual({
      'infra_slo.yaml': rules[1].file,
      'team-a_errors.yaml': rules[0].file,
    });
    const ruler = find(r.manifests, 'Deployment', 'logs-ruler');
    expect(volumeOf(ruler, 'rules')).toEqual({
      name: 'rules',
      configMap: {
        name: 'logs-rules',
        items: [
          { key: 'infra_slo.yaml', path: 'tenant-2/infra_slo' },
          { key: 'team-a_errors.yaml', path: 'tenant-1/team-a_errors' },
        ],
      },
    });
    expect(containerOf(ruler).volumeMounts).toContainEqual({
      name: 'rules',
      mountPath: '/etc/logsvc-rules',
      readOnly: true,
    });
    const config = loadAsPod(r.manifests, 'Deployment', 'logs-ruler', {
      POD_IP: '10.1.2.3',
      POD_NAME: 'logs-ruler-0',
    });
    expect(config.ruler.storage).toMatchObject({
      type: 'local',
      local: { directory: '/etc/logsvc-rules' },
    });
  });

  it('changes no ingester template for a rule, and only the file for a changed rule', () => {
    const none = renderAll(owner, specOf(micro), v1beta1, undefined, { rules: [] });
    const one = renderAll(owner, specOf(micro), v1beta1, undefined, { rules: rules.slice(0, 1) });
    const edited = renderAll(owner, specOf(micro), v1beta1, undefined, {
      rules: [{ ...rules[0], file: 'groups: []\n' }],
    });
    const template = (r: typeof none, kind: string, name: string) =>
      find(r.manifests, kind, name).spec.template;
    expect(template(one, 'StatefulSet', 'logs-ingester')).toEqual(
      template(none, 'StatefulSet', 'logs-ingester'),
    );
    expect(template(edited, 'Deployment', 'logs-ruler')).toEqual(
      template(one, 'Deployment', 'logs-ruler'),
    );
    expect(find(edited.manifests, 'ConfigMap', 'logs-rules').data).toEqual({
      'team-a_errors.yaml': 'groups: []\n',
    });
    // No rule selected: the (empty) ConfigMap is mounted whole.
    expect(volumeOf(find(none.manifests, 'Deployment', 'logs-ruler'), 'rules').configMap).toEqual({
      name: 'logs-rules',
    });
  });

  it('renders no rules ConfigMap or volume without spec.rules', () => {
    const { rules: _, ...plain } = micro;
    const r = renderAll(owner, specOf(plain), v1beta1, undefined, { rules });
    expect(names(r.manifests)).not.toContain('ConfigMap/logs-rules');
    expect(volumeOf(find(r.manifests, 'Deployment', 'logs-ruler'), 'rules')).toBeUndefined();
  });
});

describe('renderAll: size presets', () => {
  it("renders 1x.pico as LokiStack's: replicas, requests and limits logsvc loads", () => {
    const r = renderAll(
      owner,
      specOf({ mode: 'Microservices', size: '1x.pico', storage: { sharedClaimName: 'shared' } }),
      v1beta1,
    );
    const ingester = find(r.manifests, 'StatefulSet', 'logs-ingester');
    expect(ingester.spec.replicas).toBe(3);
    expect(containerOf(ingester).resources).toEqual({ requests: { cpu: '500m', memory: '3Gi' } });
    expect(find(r.manifests, 'StatefulSet', 'logs-index-gateway').spec.replicas).toBe(2);
    const querier = find(r.manifests, 'Deployment', 'logs-querier');
    expect(querier.spec.replicas).toBe(2);
    expect(containerOf(querier).resources).toEqual({ requests: { cpu: '750m', memory: '1.5Gi' } });
    const config = loadAsPod(r.manifests, 'StatefulSet', 'logs-ingester', {
      POD_IP: '10.1.2.3',
      POD_NAME: 'logs-ingester-0',
    });
    expect(config.common.replication_factor).toBe(2);
    expect(config.limits_config.query_timeout).toBe(180_000);
    const every = parseRuntimeConfig(configOf(r.manifests)['runtime.yaml'], 'runtime.yaml').get(
      '*',
    );
    expect(every).toMatchObject({
      ingestion_rate_mb: 4,
      ingestion_burst_size_mb: 6,
      max_global_streams_per_user: 10000,
      max_line_size: 256000,
      per_stream_rate_limit: 5 * 1024 * 1024,
      max_query_series: 500,
    });
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
    const b = hashOf({ ...base, limits: { global: { queryTimeout: '5m' } } });
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

  it('changes only runtime.yaml for global limits: no ingester template changes', () => {
    const micro = { mode: 'Microservices', storage: { sharedClaimName: 'shared' } };
    const ingester = (r: ReturnType<typeof hashOf>) =>
      find(r.manifests, 'StatefulSet', 'logs-ingester');
    const a = hashOf(micro);
    const b = hashOf({
      ...micro,
      limits: {
        global: { ingestionRateMB: 2, maxLineSize: '1KB', maxGlobalStreamsPerUser: 50 },
        tenants: { 'team-b': { maxLineSize: '2KB' } },
      },
    });
    expect(b.configHash).toBe(a.configHash);
    expect(configOf(b.manifests)['config.yaml']).toBe(configOf(a.manifests)['config.yaml']);
    expect(ingester(b).spec.template).toEqual(ingester(a).spec.template);
    expect(ingester(b).metadata.annotations!['logsvc.io/template-hash']).toBe(
      ingester(a).metadata.annotations!['logsvc.io/template-hash'],
    );
    const overrides = parseRuntimeConfig(configOf(b.manifests)['runtime.yaml'], 'runtime.yaml');
    expect(overrides.get('*')).toEqual({
      ingestion_rate_mb: 2,
      max_line_size: 1024,
      max_global_streams_per_user: 50,
    });
    expect(overrides.get('team-b')).toEqual({ max_line_size: 2048 });
    // query_timeout also bounds gRPC streams set up at start: it stays in config.yaml.
    const c = hashOf({ ...micro, limits: { global: { queryTimeout: '5m' } } });
    expect(c.configHash).not.toBe(a.configHash);
    expect(parse(configOf(c.manifests)['config.yaml']).limits_config).toEqual({
      query_timeout: '5m',
    });
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
  const zoned = {
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
  };
  const spec = specOf(zoned);
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
    // One disruption budget per zone, over that zone's pods only.
    expect(
      names(manifests).filter((n) => n.startsWith('PodDisruptionBudget/logs-ingester')),
    ).toEqual([
      'PodDisruptionBudget/logs-ingester-zone-a',
      'PodDisruptionBudget/logs-ingester-zone-b',
      'PodDisruptionBudget/logs-ingester-zone-c',
    ]);
    const pdb = find(manifests, 'PodDisruptionBudget', 'logs-ingester-zone-b');
    expect(pdb.spec).toEqual({
      maxUnavailable: 1,
      selector: {
        matchLabels: {
          'app.kubernetes.io/name': 'logsvc',
          'app.kubernetes.io/instance': 'logs',
          'app.kubernetes.io/component': 'ingester',
          'logsvc.io/zone': 'zone-b',
        },
      },
    });
    const wider = renderAll(
      owner,
      specOf({ ...zoned, rollout: { maxUnavailablePerZone: 2 } }),
      v1beta1,
    ).manifests;
    expect(find(wider, 'PodDisruptionBudget', 'logs-ingester-zone-a').spec.maxUnavailable).toBe(2);
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
