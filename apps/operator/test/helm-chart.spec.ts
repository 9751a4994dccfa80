import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderChart } from '@logsvc/helm-render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient, loadKubeConfig } from '../src/kube/client';
import { FakeKubelet } from './support/fake-kubelet';
import { freePort } from './support/free-port';
import {
  installCrd,
  readExample,
  REPO_ROOT,
  skipMessage,
  startControlPlane,
  waitFor,
  type ControlPlane,
} from './support/control-plane';

const CHART = join(REPO_ROOT, 'charts', 'logsvc-operator');

/** Kubernetes 1.20's token controller gives each ServiceAccount a token Secret: its token. */
function serviceAccountToken(admin: KubeClient, namespace: string, name: string) {
  return waitFor(`the token of ServiceAccount ${namespace}/${name}`, async () => {
    const sa = await admin.get<{ secrets?: { name: string }[] }>(
      `/api/v1/namespaces/${namespace}/serviceaccounts/${name}`,
    );
    const secretName = sa?.secrets?.[0]?.name;
    if (secretName === undefined) return undefined;
    const secret = await admin.get<{ data?: { token?: string } }>(
      `/api/v1/namespaces/${namespace}/secrets/${secretName}`,
    );
    return secret?.data?.token && Buffer.from(secret.data.token, 'base64').toString('utf8');
  });
}

/** A kubeconfig file for the control plane that authenticates with `token`. */
function tokenKubeconfig(cp: ControlPlane, user: string, token: string): string {
  const file = join(cp.dir, `${user}.kubeconfig`);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: test, cluster: {server: "${cp.apiUrl}", insecure-skip-tls-verify: true}}]`,
      `users: [{name: ${user}, user: {token: "${token}"}}]`,
      `contexts: [{name: test, context: {cluster: test, user: ${user}}}]`,
      'current-context: test',
      '',
    ].join('\n'),
  );
  return file;
}

const RELEASE = { name: 'logsvc-operator', namespace: 'logsvc-system' };

/** The operator Deployment's pod spec, as far as the tests read it. */
type DeploymentObj = {
  metadata: { name: string };
  spec: {
    template: {
      spec: { serviceAccountName: string; containers: { image: string; args: string[] }[] };
    };
  };
};

type Obj = Record<string, unknown> & {
  kind: string;
  apiVersion: string;
  metadata: { name: string; namespace?: string; uid?: string };
};

describe('charts/logsvc-operator rendered', () => {
  const { crds, objects } = renderChart(CHART, RELEASE);
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind) as Obj[];

  it('holds the CRD, a ServiceAccount, cluster RBAC and the operator Deployment', () => {
    expect(crds.map((c) => (c.metadata as { name: string }).name).sort()).toEqual([
      'logservicerules.logsvc.io',
      'logservices.logsvc.io',
    ]);
    expect(objects.map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`)).toEqual([
      'ClusterRole/logsvc-operator',
      'ClusterRoleBinding/logsvc-operator',
      'Deployment/logsvc-operator',
      'Role/logsvc-operator',
      'RoleBinding/logsvc-operator',
      'Service/logsvc-operator',
      'ServiceAccount/logsvc-operator',
      'ValidatingWebhookConfiguration/logsvc-operator',
    ]);
    const deployment = byKind('Deployment')[0] as unknown as DeploymentObj;
    expect(deployment.spec.template.spec.serviceAccountName).toBe('logsvc-operator');
    expect(deployment.spec.template.spec.containers[0].image).toBe('logsvc/logsvc-operator:0.1.0');
  });

  it('runs 2 replicas with leader election, probes and the webhook with a self-signed CA', () => {
    const deployment = byKind('Deployment')[0] as unknown as DeploymentObj & {
      spec: { replicas: number };
    };
    expect(deployment.spec.replicas).toBe(2);
    const container = deployment.spec.template.spec.containers[0] as unknown as {
      args: string[];
      livenessProbe: unknown;
      readinessProbe: unknown;
    };
    expect(container.args).toEqual(
      expect.arrayContaining([
        '--leader-elect',
        '--leader-election-namespace=logsvc-system',
        '--webhook-config=logsvc-operator',
        '--webhook-secret=logsvc-system/logsvc-operator-webhook-tls',
        '--webhook-hosts=logsvc-operator.logsvc-system.svc',
        '--upgrade-crds',
      ]),
    );
    expect(container.livenessProbe).toMatchObject({ httpGet: { path: '/healthz', port: 'http' } });
    expect(container.readinessProbe).toMatchObject({ httpGet: { path: '/readyz', port: 'http' } });
    const webhook = byKind('ValidatingWebhookConfiguration')[0] as unknown as {
      webhooks: { clientConfig: unknown; rules: unknown[] }[];
    };
    expect(webhook.webhooks[0].clientConfig).toEqual({
      service: {
        name: 'logsvc-operator',
        namespace: 'logsvc-system',
        path: '/validate-logsvc-io-v1alpha1-logservice',
        port: 443,
      },
    });
  });

  it('mounts a given certificate Secret instead, and runs one replica without leader election', () => {
    const custom = renderChart(CHART, {
      ...RELEASE,
      values: { webhook: { certSecret: 'op-cert' }, leaderElection: { enabled: false } },
    });
    const deployment = custom.objects.find((o) => o.kind === 'Deployment') as unknown as {
      spec: {
        replicas: number;
        template: { spec: { containers: { args: string[] }[]; volumes: unknown[] } };
      };
    };
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.template.spec.containers[0].args).toContain(
      '--webhook-cert-dir=/etc/logsvc-operator/webhook',
    );
    expect(deployment.spec.template.spec.containers[0].args).not.toContain('--leader-elect');
    expect(deployment.spec.template.spec.volumes).toEqual([
      { name: 'webhook-tls', secret: { secretName: 'op-cert' } },
    ]);
  });

  it('takes values: a watched namespace, another release name, no RBAC', () => {
    const custom = renderChart(CHART, {
      name: 'ops',
      namespace: 'x',
      values: { watchNamespace: 'team-a', rbac: { create: false }, image: { tag: 'dev' } },
    });
    const deployment = custom.objects.find(
      (o) => o.kind === 'Deployment',
    ) as unknown as DeploymentObj;
    expect(deployment.metadata.name).toBe('ops-logsvc-operator');
    expect(deployment.spec.template.spec.containers[0].args.slice(0, 4)).toEqual([
      '--resync=30',
      '--pod-access=proxy',
      '--namespace=team-a',
      '--http-port=8080',
    ]);
    expect(deployment.spec.template.spec.containers[0].image).toBe('logsvc/logsvc-operator:dev');
    expect(custom.objects.some((o) => o.kind === 'ClusterRole')).toBe(false);
  });
});

const skip = skipMessage();

/** Applies rendered objects with the admin client, as `helm install` would. */
async function apply(client: KubeClient, object: Obj): Promise<void> {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : ['', object.apiVersion];
  const plural = `${object.kind.toLowerCase()}s`;
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const ns = object.metadata.namespace ? `/namespaces/${object.metadata.namespace}` : '';
  await client.call(
    'PATCH',
    `${base}${ns}/${plural}/${object.metadata.name}?fieldManager=helm&force=true`,
    object,
    'application/apply-patch+yaml',
  );
}

describe.skipIf(skip !== undefined)(
  'the chart installed on a real API server, the operator on its ServiceAccount',
  () => {
    let cp: ControlPlane;
    let operator: ChildProcess | undefined;
    let kubelet: FakeKubelet;
    let output = '';
    let httpPort = 0;

    beforeAll(async () => {
      const main = join(REPO_ROOT, 'apps', 'operator', 'dist', 'main.js');
      if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
      cp = await startControlPlane();
      const admin = cp.client;
      await admin.call('POST', '/api/v1/namespaces', { metadata: { name: RELEASE.namespace } });
      await installCrd(admin); // the chart's crds/ holds the same file (generate.spec.ts)
      const rendered = renderChart(CHART, RELEASE).objects as Obj[];
      for (const object of rendered) await apply(admin, object);
      // No pods run here: the API server calls this process's webhook at 127.0.0.1 instead of
      // the Service.
      const webhookPort = await freePort();
      httpPort = await freePort();
      await admin.call(
        'PATCH',
        '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/logsvc-operator',
        [
          {
            op: 'replace',
            path: '/webhooks/0/clientConfig',
            value: {
              url: `https://127.0.0.1:${webhookPort}/validate-logsvc-io-v1alpha1-logservice`,
            },
          },
        ],
        'application/json-patch+json',
      );

      const token = await serviceAccountToken(admin, RELEASE.namespace, 'logsvc-operator');
      const kubeconfig = tokenKubeconfig(cp, 'operator', token);
      // The chart's arguments, but for the host names and ports of this machine.
      const chartArgs = (
        rendered.find((o) => o.kind === 'Deployment') as unknown as DeploymentObj
      ).spec.template.spec.containers[0].args.filter(
        (a) => !/^--(resync|webhook-hosts|webhook-port|http-port)=/.test(a),
      );
      operator = spawn(
        process.execPath,
        [
          main,
          `--kubeconfig=${kubeconfig}`,
          ...chartArgs,
          '--resync=3',
          '--webhook-hosts=127.0.0.1',
          `--webhook-port=${webhookPort}`,
          `--http-port=${httpPort}`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, POD_NAME: 'operator-0' } },
      );
      operator.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      operator.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      await waitFor(
        'the operator to start',
        async () => output.includes('watching LogServices'),
        20_000,
      );
      kubelet = new FakeKubelet(admin, 'default');
    }, 180_000);

    afterAll(async () => {
      kubelet?.stop();
      if (operator && operator.exitCode === null) {
        const exited = new Promise((resolve) => operator!.once('exit', resolve));
        operator.kill('SIGTERM');
        await exited;
      }
      await cp?.stop();
    });

    it('reconciles a LogService with only the chart RBAC: objects, status, pod replacement', async () => {
      const admin = cp.client;
      const ls = '/apis/logsvc.io/v1alpha1/namespaces/default/logservices';
      await admin.call('POST', '/api/v1/namespaces/default/secrets', {
        metadata: { name: 'logs-s3' },
        stringData: { AWS_ACCESS_KEY_ID: 'logsvc', AWS_SECRET_ACCESS_KEY: 'logsvc-secret' },
      });
      const example = readExample('microservices.yaml');
      // Through the webhook, which the operator serves with the certificate it keeps.
      await waitFor(
        'the webhook to admit the example',
        async () => (await admin.raw('POST', ls, example)).status === 201,
        30_000,
      );
      const refused = await admin.raw(
        'PATCH',
        `${ls}/logs`,
        { spec: { mode: 'SingleBinary' } },
        'application/merge-patch+json',
      );
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('spec.mode: changing it from');
      const status = await waitFor(
        'a status',
        async () => {
          const got = await admin.get<{
            status?: {
              observedGeneration?: number;
              conditions?: { type: string; status: string; reason: string; message: string }[];
            };
          }>(`${ls}/logs`);
          return got?.status?.observedGeneration === 1 ? got.status : undefined;
        },
        30_000,
      );
      const degraded = status.conditions!.find((c) => c.type === 'Degraded')!;
      expect(degraded, degraded.message).toMatchObject({ status: 'False' });
      for (const path of [
        '/api/v1/namespaces/default/configmaps/logs-config',
        '/api/v1/namespaces/default/services/logs-ingester-headless',
        '/apis/apps/v1/namespaces/default/statefulsets/logs-ingester',
        '/apis/apps/v1/namespaces/default/deployments/logs-querier',
        '/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets/logs-ingester',
      ])
        expect(await admin.get(path), path).toBeDefined();

      // The pods run as their own ServiceAccount, which may get this LogService (the admin UI
      // shows its status) and nothing else.
      const sts = await admin.get<DeploymentObj>(
        '/apis/apps/v1/namespaces/default/statefulsets/logs-ingester',
      );
      expect(sts!.spec.template.spec.serviceAccountName).toBe('logs-logsvc');
      const asPod = new KubeClient(
        await loadKubeConfig(
          tokenKubeconfig(cp, 'pod', await serviceAccountToken(admin, 'default', 'logs-logsvc')),
        ),
      );
      const own = await asPod.raw('GET', `${ls}/logs`);
      expect(own.status, own.text).toBe(200);
      expect(JSON.parse(own.text)).toMatchObject({ status: { observedGeneration: 1 } });
      expect((await asPod.raw('GET', ls)).status).toBe(403);
      expect(
        (await asPod.raw('GET', '/api/v1/namespaces/default/configmaps/logs-config')).status,
      ).toBe(403);

      // Pods never started (no kubelet) run the old revision after a version change: the
      // operator replaces them itself, one at a time (pods: delete).
      const pod0 = await waitFor('ingester pod 2', () =>
        admin.get<Obj>('/api/v1/namespaces/default/pods/logs-ingester-2'),
      );
      await admin.call(
        'PATCH',
        `${ls}/logs`,
        { spec: { version: '0.2.0' } },
        'application/merge-patch+json',
      );
      await waitFor(
        'logs-ingester-2 replaced',
        async () => {
          const pod = await admin.get<Obj>('/api/v1/namespaces/default/pods/logs-ingester-2');
          return pod !== undefined && pod.metadata.uid !== pod0.metadata.uid;
        },
        30_000,
      );

      // Ready pods: the operator reads the ring through the pod proxy (pods/proxy). Here the pod
      // IP leads nowhere, so the proxy answers with a connection error, not "forbidden".
      kubelet.start();
      const waiting = await waitFor(
        'the ring read',
        async () => {
          const got = await admin.get<{ status?: { rollout?: { message?: string } } }>(
            `${ls}/logs`,
          );
          const message = got?.status?.rollout?.message ?? '';
          return message.startsWith('cannot read the ingester ring') ? message : undefined;
        },
        40_000,
      );
      expect(waiting).not.toMatch(/forbidden/i);
      expect(output).not.toMatch(/forbidden/i);
      // Events were written with the chart's RBAC, the Lease taken, the probes answer.
      const events = await admin.call<{ items: { reason: string }[] }>(
        'GET',
        '/api/v1/namespaces/default/events',
      );
      expect(events.items.map((e) => e.reason)).toEqual(
        expect.arrayContaining(['Created', 'ReplacingPod']),
      );
      const lease = await admin.get<{ spec: { holderIdentity: string } }>(
        `/apis/coordination.k8s.io/v1/namespaces/${RELEASE.namespace}/leases/logsvc-operator`,
      );
      expect(lease!.spec.holderIdentity).toBe('operator-0');
      // --upgrade-crds with the chart's RBAC: the operator applied its own CRD at start.
      const crd = await admin.get<{ metadata: { annotations?: Record<string, string> } }>(
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/logservices.logsvc.io',
      );
      expect(crd!.metadata.annotations?.['logsvc.io/operator-version']).toBe('0.1.0');
      const ready = await fetch(`http://127.0.0.1:${httpPort}/readyz`);
      expect(ready.status).toBe(200);
      const metrics = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
      expect(metrics).toContain('controller_runtime_reconcile_total{controller="logservice"');
      expect(metrics).toContain('leader_election_master_status{name="logsvc-operator"} 1');
    }, 120_000);
  },
);
