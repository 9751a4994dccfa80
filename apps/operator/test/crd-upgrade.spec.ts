import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from '@logsvc/operator-api';
import { renderAll } from '@logsvc/operator-render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Reconciler } from '../src/controller/reconciler';
import type { KubeClient } from '../src/kube/client';
import { ANNOTATION_CRD_VERSION, upgradeCrd } from '../src/kube/crds';
import type { EtcdAccess } from '../src/etcd/members';
import { FakeKubelet } from './support/fake-kubelet';
import { FakeRing } from './support/fake-ring';
import {
  skipMessage,
  startControlPlane,
  waitFor,
  type ControlPlane,
  LS,
  NS,
} from './support/control-plane';

// The operator upgrade from the previous version's objects, on a real Kubernetes 1.20 API
// server: the previous CRD (fixtures/previous-crd.yaml, main's) and a LogService it stored
// (fixtures/previous-logservice.yaml); the new operator applies its own CRD at start, reads
// the stored object, defaults and reconciles it without replacing a pod.

const CRD = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/logservices.logsvc.io';
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
interface PodTemplate {
  metadata?: { annotations?: Record<string, string>; [key: string]: unknown };
  spec: {
    serviceAccountName?: string;
    containers: { args?: string[] }[];
    [key: string]: unknown;
  };
}

/**
 * A pod template of this operator version without what this version changes in every pod on
 * purpose (docs/operator.md: an operator upgrade then replaces each pod once, one LogService at
 * a time): the pods' ServiceAccount (the admin UI reads its LogService's status), in
 * stateful pods `-server.graceful-shutdown-timeout` (the final checkpoint's time), the
 * config hash (global limits moved from config.yaml to runtime.yaml), and in Microservices the
 * admin UI beside the ruler or compactor (`-target=compactor,ui`).
 */
function withoutIntendedChanges(template: PodTemplate): PodTemplate {
  const { serviceAccountName: _, ...spec } = template.spec;
  const { 'logsvc.io/config-hash': _hash, ...annotations } = template.metadata?.annotations ?? {};
  return {
    ...template,
    metadata: { ...template.metadata, annotations },
    spec: {
      ...spec,
      containers: spec.containers.map((c) =>
        c.args === undefined
          ? c
          : {
              ...c,
              args: c.args
                .filter((a) => !a.startsWith('-server.graceful-shutdown-timeout='))
                .map((a) => (/^-target=(ruler|compactor),ui$/.test(a) ? a.slice(0, -3) : a)),
            },
      ),
    },
  };
}

const previousTemplates = (
  JSON.parse(fixture('previous-render.json')) as { templates: Record<string, PodTemplate> }
).templates;

interface Obj {
  metadata: {
    name: string;
    uid: string;
    generation?: number;
    annotations?: Record<string, string>;
  };
  spec?: Record<string, unknown>;
  status?: { conditions?: { type: string; status: string; reason: string; message: string }[] };
}

const skip = skipMessage();

describe.skipIf(skip !== undefined)(
  'operator upgrade from the previous version (Kubernetes 1.20)',
  () => {
    let cp: ControlPlane;
    let client: KubeClient;
    let kubelet: FakeKubelet;

    const established = () =>
      waitFor('the CRD to be served', async () => {
        const got = await client.get<{
          status?: { conditions?: { type: string; status: string }[] };
        }>(CRD);
        const ok = got?.status?.conditions?.some(
          (c) => c.type === 'Established' && c.status === 'True',
        );
        return ok && (await client.raw('GET', LS)).status === 200;
      });

    beforeAll(async () => {
      cp = await startControlPlane();
      client = cp.client;
      await client.call(
        'POST',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        parse(fixture('previous-crd.yaml')),
      );
      await established();
      kubelet = new FakeKubelet(client, NS);
    }, 180_000);

    afterAll(async () => {
      kubelet?.stop();
      await cp?.stop();
    });

    it('applies its CRD once, and never over one a newer operator applied', async () => {
      // A LogService stored under the previous schema: its defaults (1 etcd member) are stored.
      await client.call('POST', `/api/v1/namespaces/${NS}/secrets`, {
        metadata: { name: 'logs-s3' },
        stringData: { AWS_ACCESS_KEY_ID: 'logsvc', AWS_SECRET_ACCESS_KEY: 'logsvc-secret' },
      });
      await client.call('POST', LS, parse(fixture('previous-logservice.yaml')));

      expect(await upgradeCrd(client, '0.1.0')).toEqual({ kind: 'Applied' });
      await established();
      expect(await upgradeCrd(client, '0.1.0')).toEqual({ kind: 'Current' });
      // The new schema is served: a LogService written now gets 3 etcd members by default...
      const fresh = await client.call<Obj>('POST', LS, {
        apiVersion: 'logsvc.io/v1alpha1',
        kind: 'LogService',
        metadata: { name: 'fresh' },
        spec: { version: '0.1.0', mode: 'Microservices', storage: { sharedClaimName: 'shared' } },
      });
      expect(
        (fresh.spec as { ring: { managed: { replicas: number } } }).ring.managed.replicas,
      ).toBe(3);
      // ...while the stored one keeps the member count it was created with.
      const old = (await client.get<Obj>(`${LS}/logs`))!;
      expect((old.spec as { ring: { managed: { replicas: number } } }).ring.managed.replicas).toBe(
        1,
      );
      await client.call('DELETE', `${LS}/fresh`);

      // An operator of a newer version applied it: an older replica leaves it alone.
      await client.call(
        'PATCH',
        CRD,
        { metadata: { annotations: { [ANNOTATION_CRD_VERSION]: '0.2.0' } } },
        'application/merge-patch+json',
      );
      expect(await upgradeCrd(client, '0.1.0')).toEqual({ kind: 'Newer', installed: '0.2.0' });
      expect(await upgradeCrd(client, '0.3.0')).toEqual({ kind: 'Applied', from: '0.2.0' });
    }, 60_000);

    it('reads, defaults and reconciles the stored LogService with the pod templates it had', async () => {
      const stored = (await client.get<Obj>(`${LS}/logs`))!;
      const parsed = parseSpec(stored.spec);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      // Rendered by this operator, every pod template is the previous operator's.
      const { manifests } = renderAll(
        { name: 'logs', namespace: NS, uid: stored.metadata.uid },
        parsed.spec,
        { pdbApiVersion: 'policy/v1beta1' },
      );
      const templates = Object.fromEntries(
        manifests
          .filter((m) => m.kind === 'StatefulSet' || m.kind === 'Deployment')
          .map((m) => [
            `${m.kind}/${m.metadata.name}`,
            (m as unknown as { spec: { template: PodTemplate } }).spec.template,
          ]),
      );
      // This version's changes are the documented ones, and nothing else.
      for (const [name, template] of Object.entries(templates))
        expect(template.spec.serviceAccountName, name).toBe(
          name === 'StatefulSet/logs-etcd' ? undefined : 'logs-logsvc',
        );
      expect(
        Object.fromEntries(
          Object.entries(templates).map(([name, t]) => [name, withoutIntendedChanges(t)]),
        ),
      ).toEqual(
        Object.fromEntries(
          Object.entries(previousTemplates).map(([name, t]) => [
            name,
            { ...withoutIntendedChanges(t), spec: t.spec },
          ]),
        ),
      );

      // Reconciled: Ready on 1 etcd member, nothing grown.
      kubelet.start();
      const events: string[] = [];
      const reconciler = new Reconciler({
        client,
        pods: new FakeRing(client),
        capabilities: { pdbApiVersion: 'policy/v1beta1' },
        events: { record: (_s, _t, reason) => void events.push(reason) },
      });
      await waitFor(
        'Ready=True',
        async () => {
          await reconciler.reconcile(NS, 'logs');
          const got = await client.get<Obj>(`${LS}/logs`);
          return got?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
        },
        90_000,
      );
      const etcd = (await client.get<Obj>(
        `/apis/apps/v1/namespaces/${NS}/statefulsets/logs-etcd`,
      ))!;
      expect(etcd.spec!.replicas).toBe(1);
      expect(events).not.toContain('EtcdMemberAdded');
      expect(events).not.toContain('ReplacingPod');
    }, 120_000);

    it('grows that etcd from 1 to 3 members when its spec asks, one member at a time', async () => {
      // etcd's member API, as the pods the fake kubelet made Ready would answer it.
      const added: string[] = [];
      const readyEtcdPods = async () =>
        (
          await client.call<{
            items: {
              metadata: { name: string };
              status?: { conditions?: { type: string; status: string }[] };
            }[];
          }>(
            'GET',
            `/api/v1/namespaces/${NS}/pods?labelSelector=app.kubernetes.io/component%3Detcd`,
          )
        ).items
          .filter((p) =>
            p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
          )
          .map((p) => p.metadata.name);
      const etcdAccess: EtcdAccess = {
        listMembers: async () => {
          const ready = new Set(await readyEtcdPods());
          const urls = ['http://logs-etcd-0.logs-etcd-headless:2380', ...added];
          return {
            ok: true,
            members: urls.map((url) => {
              const pod = /\/\/(logs-etcd-\d+)\./.exec(url)![1];
              return { name: ready.has(pod) ? pod : '', peerURLs: [url] };
            }),
          };
        },
        addMember: async (_target, peerUrl) => void added.push(peerUrl),
      };
      const events: string[] = [];
      const reconciler = new Reconciler({
        client,
        pods: new FakeRing(client),
        etcd: etcdAccess,
        capabilities: { pdbApiVersion: 'policy/v1beta1' },
        events: { record: (_s, _t, reason) => void events.push(reason) },
      });
      await client.call(
        'PATCH',
        `${LS}/logs`,
        { spec: { ring: { managed: { replicas: 3 } } } },
        'application/merge-patch+json',
      );
      type Sts = {
        spec: {
          replicas: number;
          updateStrategy: { rollingUpdate?: { partition?: number } };
          template: { spec: { containers: { command: string[] }[] } };
        };
      };
      const steps = new Set<string>();
      const messages = new Set<string>();
      await waitFor(
        '3 etcd members',
        async () => {
          await reconciler.reconcile(NS, 'logs');
          const sts = (await client.get<Sts>(
            `/apis/apps/v1/namespaces/${NS}/statefulsets/logs-etcd`,
          ))!;
          const state = sts.spec.template.spec.containers[0].command.find((a) =>
            a.startsWith('--initial-cluster-state='),
          );
          const partition = sts.spec.updateStrategy.rollingUpdate?.partition ?? '-';
          steps.add(`${sts.spec.replicas} ${partition} ${state}`);
          const ls = await client.get<Obj & { status?: { rollout?: { message?: string } } }>(
            `${LS}/logs`,
          );
          if (ls?.status?.rollout?.message) messages.add(ls.status.rollout.message);
          return (
            sts.spec.replicas === 3 &&
            partition === '-' &&
            ls?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
          );
        },
        90_000,
      );
      expect(added).toEqual([
        'http://logs-etcd-1.logs-etcd-headless:2380',
        'http://logs-etcd-2.logs-etcd-headless:2380',
      ]);
      expect([...steps]).toEqual(
        expect.arrayContaining([
          '2 1 --initial-cluster-state=existing',
          '3 2 --initial-cluster-state=existing',
          '3 - --initial-cluster-state=existing',
        ]),
      );
      expect([...steps]).not.toContain('3 - --initial-cluster-state=new');
      expect(events.filter((e) => e === 'EtcdMemberAdded')).toHaveLength(2);
      expect(
        [...messages].some((m) => m.startsWith('growing the managed etcd from 1 to 3 members')),
      ).toBe(true);
      // 3 members: a disruption budget.
      expect(
        await client.get(`/apis/policy/v1beta1/namespaces/${NS}/poddisruptionbudgets/logs-etcd`),
      ).toBeDefined();
    }, 120_000);
  },
);
