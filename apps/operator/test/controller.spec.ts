import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Controller } from '../src/controller/controller';
import { Reconciler } from '../src/controller/reconciler';
import type { KubeClient } from '../src/kube/client';
import { discoverCapabilities } from '../src/kube/discovery';
import { FakeKubelet } from './support/fake-kubelet';
import { FakeRing } from './support/fake-ring';
import {
  installCrd,
  readExample,
  skipMessage,
  startControlPlane,
  waitFor,
  type ControlPlane,
  LS,
  NS,
} from './support/control-plane';

// Tier 2: the operator against a real Kubernetes 1.20 API server, controller manager and
// scheduler (tools/k8s/control-plane.sh). No kubelet: FakeKubelet marks pods Ready, and the
// ring is what logsvc would report for those pods (FakeRing).

type Obj = {
  metadata: {
    name: string;
    uid: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string }[];
  };
  spec?: Record<string, unknown> & {
    template?: { metadata: { annotations?: Record<string, string> } };
  };
  status?: Record<string, unknown> & {
    conditions?: { type: string; status: string; reason: string; message: string }[];
    updateRevision?: string;
  };
};

const skip = skipMessage();

describe.skipIf(skip !== undefined)('operator against a real API server (Kubernetes 1.20)', () => {
  let cp: ControlPlane;
  let client: KubeClient;
  let controller: Controller;
  let ring: FakeRing;
  let kubelet: FakeKubelet;
  const logs: string[] = [];

  const startOperator = async () => {
    const capabilities = await discoverCapabilities(client);
    const reconciler = new Reconciler({
      client,
      pods: ring,
      capabilities,
      log: (m) => logs.push(m),
    });
    controller = new Controller(client, reconciler, {
      resyncMs: 5000,
      workers: 2,
      log: (m) => logs.push(m),
    });
    controller.start();
  };
  const get = (path: string) => client.get<Obj>(path);
  const list = async (path: string) => (await client.call<{ items: Obj[] }>('GET', path)).items;
  const condition = (o: Obj | undefined, type: string) =>
    o?.status?.conditions?.find((c) => c.type === type);
  const create = (body: Record<string, unknown>) => client.call('POST', LS, body);
  const patchSpec = (name: string, spec: Record<string, unknown>) =>
    client.call('PATCH', `${LS}/${name}`, { spec }, 'application/merge-patch+json');

  beforeAll(async () => {
    cp = await startControlPlane();
    client = cp.client;
    await installCrd(client);
    ring = new FakeRing(client);
    kubelet = new FakeKubelet(client, NS);
    kubelet.start();
    await startOperator();
  }, 180_000);

  afterAll(async () => {
    kubelet?.stop();
    await controller?.stop();
    await cp?.stop();
  });

  it('chooses policy/v1beta1 PodDisruptionBudgets by discovery on 1.20', async () => {
    expect(await discoverCapabilities(client)).toEqual({ pdbApiVersion: 'policy/v1beta1' });
  });

  it('lets the API server refuse specs the schema forbids and fill in defaults', async () => {
    const bad = await client.raw('POST', LS, {
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogService',
      metadata: { name: 'bad' },
      spec: { version: '1', mode: 'Distributed', replicationFactor: 9, storage: { size: 'huge' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('spec.mode');
    expect(bad.text).toContain('spec.replicationFactor');
    expect(bad.text).toContain('spec.storage.size');
  });

  it('turns the single-binary example into a ConfigMap, Services and an OnDelete StatefulSet', async () => {
    const example = readExample('single-binary.yaml');
    await create({ ...example, metadata: { name: 'sb' } });
    const stored = await get(`${LS}/sb`);
    expect(stored!.spec).toMatchObject({
      mode: 'SingleBinary',
      storage: { type: 'filesystem', size: '10Gi' },
    });

    const sts = await waitFor('the StatefulSet', () =>
      get(`/apis/apps/v1/namespaces/${NS}/statefulsets/sb-single-binary`),
    );
    expect(sts.spec!.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(sts.metadata.ownerReferences).toMatchObject([{ kind: 'LogService', name: 'sb' }]);
    expect(await get(`/api/v1/namespaces/${NS}/configmaps/sb-config`)).toBeDefined();
    expect(await get(`/api/v1/namespaces/${NS}/services/sb-single-binary-headless`)).toBeDefined();
    // The real StatefulSet controller creates the pod from the template the operator applied.
    const pod = await waitFor('pod sb-single-binary-0', () =>
      get(`/api/v1/namespaces/${NS}/pods/sb-single-binary-0`),
    );
    expect(pod.metadata.labels!['app.kubernetes.io/version']).toBe('0.1.0');

    const ready = await waitFor('Ready=True', async () => {
      const ls = await get(`${LS}/sb`);
      return condition(ls, 'Ready')?.status === 'True' ? ls : undefined;
    });
    expect(ready.status).toMatchObject({
      observedGeneration: 1,
      version: '0.1.0',
      components: {
        'single-binary': { kind: 'StatefulSet', replicas: 1, readyReplicas: 1, updatedReplicas: 1 },
      },
      rollout: { phase: 'Idle' },
    });
    expect(condition(ready, 'Degraded')).toMatchObject({ status: 'False' });

    // The ConfigMap carries the LogService as stored (API server defaults included) for the
    // admin UI; a spec change that leaves config.yaml as it was updates it without a new pod.
    const configMap = (path = `/api/v1/namespaces/${NS}/configmaps/sb-config`) =>
      client.get<{ data: Record<string, string> }>(path);
    const file = parse((await configMap())!.data['logservice.yaml']);
    expect(file).toEqual({
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogService',
      metadata: { name: 'sb', namespace: NS, generation: 1 },
      spec: stored!.spec,
    });
    const template = sts.spec!.template!;
    await patchSpec('sb', { limits: { tenants: { 'team-b': { maxLineSize: '1MB' } } } });
    await waitFor('logservice.yaml of generation 2', async () => {
      const data = (await configMap())!.data;
      return parse(data['logservice.yaml']).metadata.generation === 2 ? data : undefined;
    });
    const stsAfter = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/sb-single-binary`);
    expect(stsAfter!.spec!.template).toEqual(template);
    const podAfter = await get(`/api/v1/namespaces/${NS}/pods/sb-single-binary-0`);
    expect(podAfter!.metadata.uid).toBe(pod.metadata.uid);
  });

  it('reports a spec that breaks a cross-field rule as Degraded, creating nothing', async () => {
    await create({
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogService',
      metadata: { name: 'nofs' },
      spec: { version: '1', mode: 'Microservices' },
    });
    const ls = await waitFor('InvalidSpec', async () => {
      const got = await get(`${LS}/nofs`);
      return condition(got, 'Degraded')?.reason === 'InvalidSpec' ? got : undefined;
    });
    expect(condition(ls, 'Degraded')).toMatchObject({ status: 'True' });
    expect(condition(ls, 'Degraded')!.message).toContain(
      'spec.storage.sharedClaimName: is required',
    );
    expect(await get(`/api/v1/namespaces/${NS}/configmaps/nofs-config`)).toBeUndefined();
    await client.call('DELETE', `${LS}/nofs`);
  });

  it('runs the microservices example: Deployments, ReplicaSets, StatefulSets, etcd, PDBs', async () => {
    // The example's S3 Secret: the operator checks it before applying anything.
    await client.call('POST', `/api/v1/namespaces/${NS}/secrets`, {
      metadata: { name: 'logs-s3' },
      stringData: { AWS_ACCESS_KEY_ID: 'logsvc', AWS_SECRET_ACCESS_KEY: 'logsvc-secret' },
    });
    await create(readExample('microservices.yaml') as Record<string, unknown>);
    const owned = (items: Obj[]) =>
      items.filter((o) => o.metadata.labels?.['app.kubernetes.io/instance'] === 'logs');
    await waitFor(
      '3 ingester pods',
      async () =>
        (
          await list(
            `/api/v1/namespaces/${NS}/pods?labelSelector=app.kubernetes.io/component%3Dingester`,
          )
        ).length === 3,
    );
    // The operator applies the workloads one after the other; under load some trail the pods.
    const ownedNames = (path: string, count: number) =>
      waitFor(`${count} owned ${path}`, async () => {
        const names = owned(await list(`/apis/apps/v1/namespaces/${NS}/${path}`)).map(
          (d) => d.metadata.name,
        );
        return names.length >= count ? names : undefined;
      });
    const deployments = await ownedNames('deployments', 4);
    expect(deployments.sort()).toEqual([
      'logs-distributor',
      'logs-querier',
      'logs-query-frontend',
      'logs-query-scheduler',
    ]);
    const sets = await ownedNames('statefulsets', 3);
    expect(sets.sort()).toEqual(['logs-compactor', 'logs-etcd', 'logs-ingester']);
    // The deployment controller made ReplicaSets, and they made pods.
    const replicaSets = await waitFor('ReplicaSets', async () => {
      const rs = (await list(`/apis/apps/v1/namespaces/${NS}/replicasets`)).filter((r) =>
        r.metadata.ownerReferences?.some((o) => o.name.startsWith('logs-')),
      );
      return rs.length === 4 ? rs : undefined;
    });
    expect(replicaSets.map((r) => r.metadata.ownerReferences![0].name).sort()).toEqual([
      'logs-distributor',
      'logs-querier',
      'logs-query-frontend',
      'logs-query-scheduler',
    ]);
    // The operator applies the budgets in its reconcile; under load they may trail the pods.
    const pdbs = await waitFor('6 PodDisruptionBudgets', async () => {
      const names = (await list(`/apis/policy/v1beta1/namespaces/${NS}/poddisruptionbudgets`)).map(
        (p) => p.metadata.name,
      );
      return names.length >= 6 ? names : undefined;
    });
    // The managed etcd runs 3 members by default, under its own budget.
    expect(pdbs.sort()).toEqual([
      'logs-distributor',
      'logs-etcd',
      'logs-ingester',
      'logs-querier',
      'logs-query-frontend',
      'logs-query-scheduler',
    ]);
    await waitFor(
      'Ready=True',
      async () => condition(await get(`${LS}/logs`), 'Ready')?.status === 'True',
      60_000,
    );
  }, 90_000);

  it('replaces ingesters one at a time after prepare_shutdown, surviving an operator restart', async () => {
    const before = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/logs-ingester`);
    const hashBefore = before!.spec!.template!.metadata.annotations!['logsvc.io/config-hash'];
    // A config change (query_timeout, the global limit that stays in config.yaml): the config
    // hash on every pod template changes.
    await patchSpec('logs', { limits: { global: { queryTimeout: '2m' } } });
    const after = await waitFor('a new template', async () => {
      const sts = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/logs-ingester`);
      const hash = sts!.spec!.template!.metadata.annotations!['logsvc.io/config-hash'];
      return hash !== hashBefore ? sts : undefined;
    });
    expect(after.spec!.updateStrategy).toEqual({ type: 'OnDelete' });

    // Halfway, the operator is replaced by a new one: it carries on from the cluster's state.
    await waitFor('the first replacement', async () => ring.prepared.length >= 1, 30_000);
    await controller.stop();
    expect(ring.prepared[0]).toBe('logs-ingester-2');
    await startOperator();

    const done = await waitFor(
      'every ingester on the new revision, Ready',
      async () => {
        const sts = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/logs-ingester`);
        const pods = await list(
          `/api/v1/namespaces/${NS}/pods?labelSelector=app.kubernetes.io/component%3Dingester`,
        );
        const ls = await get(`${LS}/logs`);
        const current = pods.filter(
          (p) => p.metadata.labels!['controller-revision-hash'] === sts!.status!.updateRevision,
        );
        return current.length === 3 && condition(ls, 'Ready')?.status === 'True' ? ls : undefined;
      },
      60_000,
    );
    expect(ring.prepared).toEqual(['logs-ingester-2', 'logs-ingester-1', 'logs-ingester-0']);
    expect(done.status!.rollout).toEqual({ phase: 'Idle' });
    // The stateless ones rolled by themselves (surge): a second ReplicaSet per Deployment.
    const rs = (await list(`/apis/apps/v1/namespaces/${NS}/replicasets`)).filter(
      (r) => r.metadata.ownerReferences?.[0]?.name === 'logs-querier',
    );
    expect(rs.length).toBe(2);
  }, 120_000);

  it('halts and reports Degraded when a new ingester is not Ready in time, and resumes', async () => {
    ring.prepared.length = 0;
    kubelet.held.add('logs-ingester-2');
    await patchSpec('logs', { version: '0.2.0', rollout: { podReadyTimeout: '3s' } });
    const halted = await waitFor(
      'Degraded',
      async () => {
        const ls = await get(`${LS}/logs`);
        return condition(ls, 'Degraded')?.status === 'True' ? ls : undefined;
      },
      40_000,
    );
    expect(condition(halted, 'Degraded')).toMatchObject({ reason: 'RolloutHalted' });
    expect(condition(halted, 'Degraded')!.message).toMatch(
      /^logs-ingester-2 is not Ready \d+s after it was created/,
    );
    expect(halted.status!.rollout).toMatchObject({ phase: 'Halted', pod: 'logs-ingester-2' });
    expect(halted.status!.version).toBe('0.1.0');
    expect(ring.prepared).toEqual(['logs-ingester-2']);

    kubelet.held.delete('logs-ingester-2'); // fixed
    const ready = await waitFor(
      'Ready again',
      async () => {
        const ls = await get(`${LS}/logs`);
        return condition(ls, 'Ready')?.status === 'True' ? ls : undefined;
      },
      60_000,
    );
    expect(ready.status!.version).toBe('0.2.0');
    expect(condition(ready, 'Degraded')).toMatchObject({ status: 'False' });
    expect(ring.prepared).toEqual(['logs-ingester-2', 'logs-ingester-1', 'logs-ingester-0']);
  }, 120_000);

  it('deletes what the spec no longer renders, and everything with the LogService', async () => {
    await patchSpec('logs', { ruler: { enabled: true } });
    await waitFor('the ruler', () => get(`/apis/apps/v1/namespaces/${NS}/deployments/logs-ruler`));
    await patchSpec('logs', { ruler: { enabled: false } });
    await waitFor(
      'no ruler',
      async () =>
        (await get(`/apis/apps/v1/namespaces/${NS}/deployments/logs-ruler`)) === undefined,
    );

    await client.call('DELETE', `${LS}/logs`);
    // The garbage collector follows the ownerReferences.
    await waitFor(
      'the owned objects to go',
      async () =>
        (await get(`/api/v1/namespaces/${NS}/configmaps/logs-config`)) === undefined &&
        (await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/logs-ingester`)) === undefined &&
        (await get(`/apis/apps/v1/namespaces/${NS}/deployments/logs-querier`)) === undefined &&
        (await get(`/api/v1/namespaces/${NS}/services/logs-etcd`)) === undefined,
      60_000,
    );
  }, 90_000);

  it('validates the LogServiceRules a LogService selects and writes the valid ones for its ruler', async () => {
    const RULES = `/apis/logsvc.io/v1alpha1/namespaces/${NS}/logservicerules`;
    const rule = (name: string, team: string, expr: string) =>
      client.call('POST', RULES, {
        apiVersion: 'logsvc.io/v1alpha1',
        kind: 'LogServiceRule',
        metadata: { name, labels: { team } },
        spec: {
          tenant: 'tenant-1',
          groups: [{ name: 'g', interval: '1m', rules: [{ record: `${name}:rate1m`, expr }] }],
        },
      });
    // The schema is the API server's: a rule without groups is refused at create.
    const refused = await client.raw('POST', RULES, {
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogServiceRule',
      metadata: { name: 'empty' },
      spec: { tenant: 't' },
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('spec.groups');

    await rule('good', 'a', 'sum(rate({app="web"} |= "error" [1m]))');
    await rule('broken', 'a', 'sum(rate({app="web"}');
    await rule('elsewhere', 'b', 'sum(rate({app="web"}[1m]))');
    await create({
      apiVersion: 'logsvc.io/v1alpha1',
      kind: 'LogService',
      metadata: { name: 'rl' },
      spec: { version: '0.1.0', rules: { selector: { matchLabels: { team: 'a' } } } },
    });

    const configMap = (name: string) =>
      client.get<{ data?: Record<string, string> }>(`/api/v1/namespaces/${NS}/configmaps/${name}`);
    const files = await waitFor('rl-rules with the valid rule', async () => {
      const data = (await configMap('rl-rules'))?.data;
      return data?.['default_good.yaml'] !== undefined ? data : undefined;
    });
    expect(Object.keys(files)).toEqual(['default_good.yaml']);
    expect(files['default_good.yaml']).toContain('record: good:rate1m');
    const validOf = async (name: string) => condition(await get(`${RULES}/${name}`), 'Valid');
    expect(await validOf('good')).toMatchObject({ status: 'True', reason: 'Valid' });
    const broken = await waitFor('broken marked invalid', async () => {
      const c = await validOf('broken');
      return c?.status === 'False' ? c : undefined;
    });
    expect(broken).toMatchObject({ reason: 'InvalidRules' });
    expect(broken.message).toContain("could not parse expression for record 'broken:rate1m'");
    expect(await validOf('elsewhere')).toBeUndefined(); // not selected: not looked at

    // The ruler reads them as its local rule storage: <dir>/<tenant>/<rule namespace>.
    expect(parse((await configMap('rl-config'))!.data!['config.yaml']).ruler.storage).toEqual({
      type: 'local',
      local: { directory: '/etc/logsvc-rules' },
    });
    const sts = await waitFor('the rules volume', async () => {
      const got = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/rl-single-binary`);
      const volumes = (got?.spec?.template as { spec?: { volumes?: { name: string }[] } })?.spec
        ?.volumes;
      return volumes?.find((v) => v.name === 'rules');
    });
    expect(sts).toMatchObject({
      name: 'rules',
      configMap: {
        name: 'rl-rules',
        items: [{ key: 'default_good.yaml', path: 'tenant-1/default_good' }],
      },
    });

    // Fixed: it joins the ruler's files.
    await client.call(
      'PATCH',
      `${RULES}/broken`,
      {
        spec: {
          tenant: 'tenant-1',
          groups: [
            { name: 'g', rules: [{ record: 'broken:rate1m', expr: 'sum(rate({app="web"}[1m]))' }] },
          ],
        },
      },
      'application/merge-patch+json',
    );
    await waitFor('the fixed rule in rl-rules', async () => {
      const data = (await configMap('rl-rules'))?.data ?? {};
      return Object.keys(data).sort().join() === 'default_broken.yaml,default_good.yaml';
    });
    expect(await validOf('broken')).toMatchObject({ status: 'True', reason: 'Valid' });

    // Set-based: every rule whose team is not a (the API server's `team notin (a)`).
    await client.call(
      'PATCH',
      `${LS}/rl`,
      {
        spec: {
          rules: {
            selector: {
              matchLabels: null,
              matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }],
            },
          },
        },
      },
      'application/merge-patch+json',
    );
    await waitFor('only the rule of team b in rl-rules', async () => {
      const data = (await configMap('rl-rules'))?.data ?? {};
      return Object.keys(data).join() === 'default_elsewhere.yaml';
    });
    await client.call('DELETE', `${LS}/rl`);
  }, 90_000);
});
