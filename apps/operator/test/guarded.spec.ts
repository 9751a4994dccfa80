import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_CHANGES_ANNOTATION } from '@logsvc/operator-api';
import { HOSTNAME_NODE_LABEL, ZONE_NODE_LABEL } from '@logsvc/operator-render';
import { Controller } from '../src/controller/controller';
import { Reconciler } from '../src/controller/reconciler';
import type { KubeClient } from '../src/kube/client';
import { discoverCapabilities } from '../src/kube/discovery';
import { LeaderElector } from '../src/kube/leader';
import { EventRecorder } from '../src/observe/events';
import { OperatorMetrics } from '../src/observe/metrics';
import { startWebhook, type RunningWebhook } from '../src/webhook/start';
import { WEBHOOK_PATH } from '../src/webhook/server';
import { selfSignedCertificate } from '../src/webhook/certificates';
import { FakeKubelet } from './support/fake-kubelet';
import { freePort } from './support/free-port';
import { FakeRing } from './support/fake-ring';
import { markNodeReady } from './support/nodes';
import { provisionClaims } from './support/volumes';
import {
  installCrd,
  skipMessage,
  startControlPlane,
  waitFor,
  type ControlPlane,
  LS,
  NS,
} from './support/control-plane';

// Tier 2 on a real Kubernetes 1.20 API server: the checks before apply, the admission webhook
// the API server calls, Events, the status heartbeat, and leader election handing a rollout
// from a killed leader to the other replica.

const WEBHOOK_CONFIG = 'logsvc-operator';

type Condition = { type: string; status: string; reason: string; message: string };
type LogService = {
  metadata: { name: string; uid: string; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: {
    lastObservedTime?: string;
    conditions?: Condition[];
    rollout?: { phase: string; pod?: string };
  };
};
type EventItem = {
  reason: string;
  type: string;
  message: string;
  count: number;
  involvedObject: { name: string };
};

/** Microservices on the PVC `shared`, ring in etcd: what the rollout tests start from. */
const SHARED_CLAIM_SPEC = {
  version: '0.1.0',
  mode: 'Microservices',
  replicationFactor: 3,
  components: {
    distributor: { replicas: 1 },
    querier: { replicas: 1 },
    queryFrontend: { replicas: 0 },
  },
  compactor: { enabled: false },
  storage: { type: 'filesystem', sharedClaimName: 'shared', size: '1Gi' },
  ring: { store: 'etcd', etcdEndpoints: ['etcd:2379'] },
};

const skip = skipMessage();

describe.skipIf(skip !== undefined)(
  'guarded changes and a trustworthy operator (Kubernetes 1.20)',
  () => {
    let cp: ControlPlane;
    let client: KubeClient;
    let kubelet: FakeKubelet;
    let webhook: RunningWebhook | undefined;
    const ring = { current: undefined as FakeRing | undefined };
    const logs: string[] = [];
    const log = (m: string) => logs.push(m);
    const operators: {
      stop: (release: boolean) => Promise<void>;
      elector: LeaderElector;
      name: string;
    }[] = [];

    /** One operator replica: a candidate that runs the controller while it leads. */
    const startReplica = async (name: string) => {
      const capabilities = await discoverCapabilities(client);
      const events = new EventRecorder(client, {
        component: 'logsvc-operator',
        instance: name,
        log,
      });
      const reconciler = new Reconciler({
        client,
        pods: ring.current!,
        capabilities,
        log: (m) => log(`${name}: ${m}`),
        events,
        metrics: new OperatorMetrics({ processMetrics: false }),
        statusHeartbeatMs: 2000,
      });
      const controller = new Controller(client, reconciler, { resyncMs: 3000, workers: 2, log });
      const elector = new LeaderElector(client, {
        namespace: NS,
        name: 'logsvc-operator',
        identity: name,
        log,
      });
      const abort = new AbortController();
      let release = true;
      const done = elector.run(
        abort.signal,
        () => controller.start(),
        () => undefined,
        true,
      );
      // release=false: as a SIGKILL, the Lease is left to expire.
      const stop = async (releaseLease: boolean) => {
        release = releaseLease;
        if (!release) {
          // Stop renewing at once and do not clear the holder.
          (elector as unknown as { release: () => Promise<void> }).release = async () => {};
        }
        abort.abort();
        await done;
        await controller.stop();
        await events.flush();
      };
      operators.push({ stop, elector, name });
      return { stop, elector };
    };

    const get = (name: string) => client.get<LogService>(`${LS}/${name}`);
    /** The LogService when its Ready condition is True, else undefined. */
    const ready = async (name: string) => {
      const ls = await get(name);
      return ls?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
        ? ls
        : undefined;
    };
    const degraded = (ls: LogService | undefined) =>
      ls?.status?.conditions?.find((c) => c.type === 'Degraded');
    const eventsOf = async (name: string) =>
      (
        await client.call<{ items: EventItem[] }>(
          'GET',
          `/api/v1/namespaces/${NS}/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name},involvedObject.kind=LogService`)}`,
        )
      ).items;
    const create = (
      name: string,
      spec: Record<string, unknown>,
      annotations?: Record<string, string>,
    ) =>
      client.raw('POST', LS, {
        apiVersion: 'logsvc.io/v1alpha1',
        kind: 'LogService',
        metadata: { name, ...(annotations ? { annotations } : {}) },
        spec,
      });
    const patch = (name: string, body: Record<string, unknown>) =>
      client.raw('PATCH', `${LS}/${name}`, body, 'application/merge-patch+json');
    const s3 = { type: 's3', size: '1Gi', s3: { bucket: 'logs', secret: { name: 'creds' } } };

    beforeAll(async () => {
      cp = await startControlPlane();
      client = cp.client;
      await installCrd(client);
      await waitFor('the default ServiceAccount', () =>
        client.get(`/api/v1/namespaces/${NS}/serviceaccounts/default`),
      );
      ring.current = new FakeRing(client);
      kubelet = new FakeKubelet(client, NS);
      kubelet.start();
      await startReplica('operator-a');
      await waitFor('operator-a to lead', async () => operators[0].elector.isLeader, 30_000);
    }, 180_000);

    afterAll(async () => {
      kubelet?.stop();
      for (const o of operators) await o.stop(true).catch(() => undefined);
      await webhook?.stop();
      await cp?.stop();
    });

    it('checks the S3 Secret, the StorageClass and the version before applying anything', async () => {
      const spec = { version: '0.1.0', storage: s3 };
      expect((await create('checked', spec)).status).toBe(201);
      const blocked = async (reason: string) =>
        waitFor(
          reason,
          async () => {
            const ls = await get('checked');
            return degraded(ls)?.reason === reason ? degraded(ls) : undefined;
          },
          30_000,
        );
      expect(await blocked('S3SecretMissing')).toMatchObject({
        status: 'True',
        message: `spec.storage.s3.secret.name: Secret ${NS}/creds does not exist`,
      });
      const configMap = () => client.get(`/api/v1/namespaces/${NS}/configmaps/checked-config`);
      expect(await configMap()).toBeUndefined();

      await client.call('POST', `/api/v1/namespaces/${NS}/secrets`, {
        metadata: { name: 'creds' },
        stringData: { AWS_ACCESS_KEY_ID: 'id' },
      });
      expect((await blocked('S3SecretIncomplete')).message).toContain('AWS_SECRET_ACCESS_KEY');
      expect(await configMap()).toBeUndefined();
      await client.call(
        'PATCH',
        `/api/v1/namespaces/${NS}/secrets/creds`,
        { stringData: { AWS_SECRET_ACCESS_KEY: 'key' } },
        'application/merge-patch+json',
      );
      await waitFor('the ConfigMap', configMap, 30_000);

      // Without the webhook (not registered yet) these get as far as the operator.
      await create('classless', { version: '0.1.0', storage: { storageClassName: 'fast' } });
      await waitFor(
        'StorageClassMissing',
        async () => degraded(await get('classless'))?.reason === 'StorageClassMissing',
        30_000,
      );
      await create('badversion', { version: 'v1.0+build.7' });
      const bad = await waitFor(
        'InvalidVersion',
        async () => {
          const d = degraded(await get('badversion'));
          return d?.reason === 'InvalidVersion' ? d : undefined;
        },
        30_000,
      );
      expect(bad.message).toContain('spec.version: "v1.0+build.7" is not a label value');
      expect(
        await client.get(`/apis/apps/v1/namespaces/${NS}/statefulsets/badversion-single-binary`),
      ).toBeUndefined();

      // Each decision is an Event on the LogService.
      const events = await waitFor(
        'the Events',
        async () => {
          const items = await eventsOf('checked');
          const reasons = items.map((e) => e.reason);
          return reasons.includes('S3SecretIncomplete') && reasons.includes('Created')
            ? items
            : undefined;
        },
        30_000,
      );
      expect(events.find((e) => e.reason === 'S3SecretMissing')).toMatchObject({ type: 'Warning' });
      expect(
        events.some(
          (e) => e.reason === 'Created' && e.message === 'created ConfigMap checked-config',
        ),
      ).toBe(true);
      for (const name of ['checked', 'classless', 'badversion'])
        await client.call('DELETE', `${LS}/${name}`);
    }, 120_000);

    it('checks the TLS Secret before applying, then mounts it in every pod and the etcd', async () => {
      const spec = {
        version: '0.1.0',
        mode: 'SimpleScalable',
        storage: { size: '1Gi', sharedClaimName: 'shared' },
        tls: { secretName: 'grpc-tls' },
      };
      expect((await create('tlsd', spec)).status).toBe(201);
      const blocked = async (reason: string) =>
        waitFor(
          reason,
          async () => {
            const d = degraded(await get('tlsd'));
            return d?.reason === reason ? d : undefined;
          },
          30_000,
        );
      expect((await blocked('TLSSecretMissing')).message).toBe(
        `spec.tls.secretName: Secret ${NS}/grpc-tls does not exist`,
      );
      const configMap = () =>
        client.get<{ data: Record<string, string> }>(
          `/api/v1/namespaces/${NS}/configmaps/tlsd-config`,
        );
      expect(await configMap()).toBeUndefined();

      // What `kubectl create secret tls` makes: no ca.crt.
      await client.call('POST', `/api/v1/namespaces/${NS}/secrets`, {
        metadata: { name: 'grpc-tls' },
        type: 'kubernetes.io/tls',
        stringData: { 'tls.crt': 'cert', 'tls.key': 'key' },
      });
      expect((await blocked('TLSSecretIncomplete')).message).toBe(
        `spec.tls.secretName: Secret ${NS}/grpc-tls has no (or an empty) ca.crt`,
      );
      expect(await configMap()).toBeUndefined();
      const patchSecret = (stringData: Record<string, string>) =>
        client.call(
          'PATCH',
          `/api/v1/namespaces/${NS}/secrets/grpc-tls`,
          { stringData },
          'application/merge-patch+json',
        );
      await patchSecret({ 'ca.crt': 'ca' });
      expect((await blocked('TLSCertificateInvalid')).message).toContain(
        `tls.crt of Secret ${NS}/grpc-tls is not a PEM certificate`,
      );
      // A certificate for the pods' gRPC only: the etcd members could not dial each other.
      const certFor = (hosts: string[]) => {
        const made = selfSignedCertificate(hosts);
        return { 'tls.crt': made.cert, 'tls.key': made.key, 'ca.crt': made.caCert };
      };
      await patchSecret(certFor(['tlsd-grpc']));
      expect((await blocked('TLSCertificateNames')).message).toContain(
        `does not cover tlsd-etcd-0.tlsd-etcd-headless, tlsd-etcd-1.tlsd-etcd-headless, tlsd-etcd-2.tlsd-etcd-headless, *.tlsd-etcd-headless.${NS}.svc.cluster.local`,
      );
      expect(await configMap()).toBeUndefined();
      await patchSecret(
        certFor([
          'tlsd-grpc',
          '*.tlsd-etcd-headless',
          `*.tlsd-etcd-headless.${NS}.svc.cluster.local`,
        ]),
      );
      const config = await waitFor('the ConfigMap', configMap, 30_000);
      expect(config.data['config.yaml']).toContain('client_auth_type: RequireAndVerifyClientCert');
      // The API server took every pod template with the Secret's volume.
      type PodSpec = {
        volumes: { name: string; secret?: { secretName: string } }[];
        containers: { volumeMounts: { name: string; readOnly?: boolean }[] }[];
      };
      for (const name of ['tlsd-write', 'tlsd-backend', 'tlsd-etcd', 'tlsd-read']) {
        const kind = name === 'tlsd-read' ? 'deployments' : 'statefulsets';
        const workload = await waitFor(name, () =>
          client.get<{ spec: { template: { spec: PodSpec } } }>(
            `/apis/apps/v1/namespaces/${NS}/${kind}/${name}`,
          ),
        );
        const pod = workload.spec.template.spec;
        expect(pod.volumes.find((v) => v.name === 'tls')?.secret?.secretName).toBe('grpc-tls');
        expect(pod.containers[0].volumeMounts).toContainEqual(
          expect.objectContaining({ name: 'tls', readOnly: true }),
        );
      }
      await client.call('DELETE', `${LS}/tlsd`);
    }, 120_000);

    it('keeps lastObservedTime fresh while the operator watches, and changes nothing while paused', async () => {
      await create('fresh', { version: '0.1.0' });
      const first = await waitFor(
        'a status',
        async () => (await get('fresh'))?.status?.lastObservedTime,
        30_000,
      );
      const later = await waitFor(
        'a newer lastObservedTime',
        async () => {
          const t = (await get('fresh'))?.status?.lastObservedTime;
          return t !== undefined && t > first ? t : undefined;
        },
        30_000,
      );
      expect(Date.parse(later) - Date.parse(first)).toBeGreaterThanOrEqual(1000);

      // Paused: a new version changes nothing until it is unpaused.
      const sts = `/apis/apps/v1/namespaces/${NS}/statefulsets/fresh-single-binary`;
      const versionOf = async () =>
        (
          await client.get<{
            spec: { template: { metadata: { labels: Record<string, string> } } };
          }>(sts)
        )?.spec.template.metadata.labels['app.kubernetes.io/version'];
      await waitFor('the StatefulSet', async () => (await versionOf()) === '0.1.0', 30_000);
      await patch('fresh', { spec: { paused: true, version: '0.2.0' } });
      await waitFor(
        'Paused',
        async () => {
          const ls = await get('fresh');
          return ls?.status?.conditions?.some((c) => c.reason === 'Paused');
        },
        30_000,
      );
      await new Promise((r) => setTimeout(r, 4000)); // more than a resync
      expect(await versionOf()).toBe('0.1.0');
      await patch('fresh', { spec: { paused: false } });
      await waitFor('the new version applied', async () => (await versionOf()) === '0.2.0', 30_000);
      // Events are posted after the change they report: the Resumed one may trail the apply.
      const reasons = await waitFor(
        'the Paused and Resumed events',
        async () => {
          const r = (await eventsOf('fresh')).map((e) => e.reason);
          return r.includes('Paused') && r.includes('Resumed') ? r : undefined;
        },
        30_000,
      );
      expect(reasons).toEqual(expect.arrayContaining(['Paused', 'Resumed']));
      await client.call('DELETE', `${LS}/fresh`);
    }, 120_000);

    it('is called by the API server and refuses guarded and immutable changes, naming the field', async () => {
      const port = await freePort();
      await client.call(
        'POST',
        '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
        {
          metadata: { name: WEBHOOK_CONFIG },
          webhooks: [
            {
              name: 'logservices.logsvc.io',
              admissionReviewVersions: ['v1'],
              sideEffects: 'NoneOnDryRun',
              failurePolicy: 'Fail',
              timeoutSeconds: 10,
              clientConfig: { url: `https://127.0.0.1:${port}${WEBHOOK_PATH}` },
              rules: [
                {
                  apiGroups: ['logsvc.io'],
                  apiVersions: ['*'],
                  operations: ['CREATE', 'UPDATE'],
                  resources: ['logservices'],
                },
              ],
            },
          ],
        },
      );
      webhook = await startWebhook(
        client,
        {
          port,
          secret: { namespace: NS, name: 'webhook-tls' },
          hosts: ['127.0.0.1'],
          config: WEBHOOK_CONFIG,
        },
        {
          events: new EventRecorder(client, {
            component: 'logsvc-operator',
            instance: 'webhook',
            log,
          }),
          log,
        },
      );
      expect(webhook.notReady()).toBeUndefined();
      const stored = await client.get<{ webhooks: { clientConfig: { caBundle?: string } }[] }>(
        `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${WEBHOOK_CONFIG}`,
      );
      expect(stored!.webhooks[0].clientConfig.caBundle).toBeTruthy();

      const micro = {
        version: '0.1.0',
        mode: 'Microservices',
        storage: s3,
        ring: { store: 'etcd', etcdEndpoints: ['etcd:2379'] },
      };
      // The API server may take a moment to trust the new CA bundle.
      await waitFor(
        'the webhook to admit',
        async () => (await create('guarded', micro)).status === 201,
        30_000,
      );

      const refused = await patch('guarded', { spec: { mode: 'SingleBinary' } });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain(
        'admission webhook \\"logservices.logsvc.io\\" denied the request',
      );
      expect(refused.text).toContain(
        'spec.mode: changing it from \\"Microservices\\" to \\"SingleBinary\\" is refused',
      );
      expect((await get('guarded'))!.spec.mode).toBe('Microservices');

      const resize = await patch('guarded', { spec: { storage: { size: '2Gi' } } });
      expect(resize.status).toBe(422);
      expect(resize.text).toContain('spec.storage.size: is immutable');

      const bucket = await patch('guarded', { spec: { storage: { s3: { bucket: 'other' } } } });
      expect(bucket.text).toContain('spec.storage.s3.bucket: changing it from');

      // Rules across fields are refused at create, not only reported in status.
      const nofs = await create('nofs', { version: '1', mode: 'Microservices' });
      expect(nofs.status).toBe(422);
      expect(nofs.text).toContain('spec.storage.sharedClaimName: is required');
      // Keys the spec does not model, checked with logsvc's own config loader.
      const overrides = await create('overrides', {
        version: '1',
        configOverrides: { ingester: { chunk_idle_priod: '1h' } },
      });
      expect(overrides.status).toBe(422);
      expect(overrides.text).toContain(
        'spec.configOverrides: ingester.chunk_idle_priod: unknown key',
      );

      // Asked for explicitly: allowed.
      const allowed = await patch('guarded', {
        metadata: { annotations: { [ALLOW_CHANGES_ANNOTATION]: 'spec.storage.s3.bucket' } },
        spec: { storage: { s3: { bucket: 'other' } } },
      });
      expect(allowed.status, allowed.text).toBe(200);

      const events = await waitFor(
        'a Refused Event',
        async () => {
          const items = (await eventsOf('guarded')).filter((e) => e.reason === 'Refused');
          return items.length >= 2 ? items : undefined;
        },
        30_000,
      );
      expect(events[0]).toMatchObject({ type: 'Warning' });
      expect(events.map((e) => e.message).join('\n')).toContain('spec.mode');
      await client.call('DELETE', `${LS}/guarded`);
    }, 90_000);

    it('hands a rollout over when the leader is killed: the other replica replaces the next pod', async () => {
      const b = await startReplica('operator-b');
      await client.call('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
        metadata: { name: 'shared' },
        spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } },
      });
      expect((await create('ha', SHARED_CLAIM_SPEC)).status).toBe(201);
      await waitFor('Ready', () => ready('ha'), 90_000);
      expect(operators[0].elector.isLeader).toBe(true);
      expect(b.elector.isLeader).toBe(false);

      const fake = ring.current!;
      fake.prepared.length = 0;
      // Every new pod waits a while before it is Ready, so the kill lands mid-rollout.
      kubelet.held.add('ha-ingester-2');
      expect((await patch('ha', { spec: { version: '0.2.0' } })).status).toBe(200);
      await waitFor(
        'the first replacement',
        async () => fake.prepared.includes('ha-ingester-2'),
        60_000,
      );
      const killedAt = Date.now();
      await operators[0].stop(false);
      kubelet.held.delete('ha-ingester-2');

      await waitFor('operator-b to lead', async () => b.elector.isLeader, 40_000);
      const tookOverMs = Date.now() - killedAt;
      // The Lease is 15s: the other replica waits it out, not much longer.
      expect(tookOverMs).toBeGreaterThanOrEqual(13_000);
      expect(tookOverMs).toBeLessThan(35_000);
      const done = await waitFor(
        'the rollout to finish under operator-b',
        async () => {
          const ls = await ready('ha');
          return ls && fake.prepared.length === 3 ? ls : undefined;
        },
        120_000,
      );
      expect(fake.prepared).toEqual(['ha-ingester-2', 'ha-ingester-1', 'ha-ingester-0']);
      expect(done.status!.rollout).toEqual({ phase: 'Idle' });
      expect(logs.some((l) => l.startsWith('operator-b: rollout: replacing ha-ingester-1'))).toBe(
        true,
      );
      const lease = await client.get<{
        spec: { holderIdentity: string; leaseTransitions: number };
      }>(`/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/logsvc-operator`);
      expect(lease!.spec).toMatchObject({ holderIdentity: 'operator-b', leaseTransitions: 1 });
      const reasons = (await eventsOf('ha')).map((e) => e.reason);
      expect(reasons).toEqual(
        expect.arrayContaining(['Created', 'ReplacingPod', 'Waiting', 'RolloutFinished']),
      );
    }, 240_000);

    it('rolls a zone-aware LogService zone by zone, up to maxUnavailablePerZone pods at once, and drains ingesters it scales down', async () => {
      const spec = {
        version: '0.1.0',
        mode: 'Microservices',
        replicationFactor: 2,
        zones: ['a', 'b'],
        components: {
          distributor: { replicas: 1 },
          ingester: { replicas: 2 },
          querier: { replicas: 1 },
          queryFrontend: { replicas: 0 },
        },
        compactor: { enabled: false },
        storage: { type: 'filesystem', sharedClaimName: 'shared', size: '1Gi' },
        ring: { store: 'etcd', etcdEndpoints: ['etcd:2379'] },
        rollout: { maxUnavailablePerZone: 2 },
      };
      expect((await create('zoned', spec)).status).toBe(201);
      await waitFor('Ready', () => ready('zoned'), 90_000);
      const fake = ring.current!;
      fake.prepared.length = 0;
      expect((await patch('zoned', { spec: { version: '0.2.0' } })).status).toBe(200);
      await waitFor(
        'every ingester replaced',
        async () => fake.prepared.length === 4 && (await ready('zoned')),
        120_000,
      );
      expect(fake.prepared).toEqual([
        'zoned-ingester-a-1',
        'zoned-ingester-a-0',
        'zoned-ingester-b-1',
        'zoned-ingester-b-0',
      ]);
      // Two per step: both pods of a zone went together.
      expect(
        logs.some((l) =>
          l.includes('rollout: replacing zoned-ingester-a-1, zoned-ingester-a-0 of zone a'),
        ),
      ).toBe(true);
      expect(
        logs.some((l) =>
          l.includes('rollout: replacing zoned-ingester-b-1, zoned-ingester-b-0 of zone b'),
        ),
      ).toBe(true);
      // Spread by default, pinned to its zone, accepted by the API server.
      const sts = await client.get<{
        spec: {
          template: { spec: { nodeSelector: unknown; topologySpreadConstraints: unknown[] } };
        };
      }>(`/apis/apps/v1/namespaces/${NS}/statefulsets/zoned-ingester-b`);
      expect(sts!.spec.template.spec.nodeSelector).toEqual({ 'topology.kubernetes.io/zone': 'b' });
      expect(sts!.spec.template.spec.topologySpreadConstraints).toHaveLength(2);

      // Scaling down: the removed ingesters are drained one at a time, then go.
      fake.prepared.length = 0;
      expect(
        (await patch('zoned', { spec: { components: { ingester: { replicas: 1 } } } })).status,
      ).toBe(200);
      const replicasOf = async (zone: string) =>
        (
          await client.get<{ spec: { replicas: number } }>(
            `/apis/apps/v1/namespaces/${NS}/statefulsets/zoned-ingester-${zone}`,
          )
        )?.spec.replicas;
      await waitFor(
        'one ingester per zone, Ready',
        async () =>
          (await replicasOf('a')) === 1 &&
          (await replicasOf('b')) === 1 &&
          (await client.get(`/api/v1/namespaces/${NS}/pods/zoned-ingester-b-1`)) === undefined &&
          (await ready('zoned')),
        120_000,
      );
      expect(fake.prepared).toEqual(['zoned-ingester-a-1', 'zoned-ingester-b-1']);
      expect(logs.some((l) => l.includes('scale down: scaling zoned-ingester-a down to 1'))).toBe(
        true,
      );
      await client.call('DELETE', `${LS}/zoned`);
    }, 240_000);

    it('after an operator upgrade rolls LogServices one at a time, from objects an older operator made', async () => {
      for (const name of ['up1', 'up2'])
        expect((await create(name, SHARED_CLAIM_SPEC)).status).toBe(201);
      await waitFor('both Ready', async () => (await ready('up1')) && (await ready('up2')), 90_000);
      const fake = ring.current!;
      fake.prepared.length = 0;
      // The operator is replaced by a newer one. Meanwhile the pods run what an older one
      // rendered: ingester sets without the template hash, with another config hash.
      for (const o of operators) await o.stop(true);
      for (const name of ['up1', 'up2']) {
        await client.call(
          'PATCH',
          `/apis/apps/v1/namespaces/${NS}/statefulsets/${name}-ingester?fieldManager=older-operator`,
          {
            metadata: { annotations: { 'logsvc.io/template-hash': null } },
            spec: { template: { metadata: { annotations: { 'logsvc.io/config-hash': 'older' } } } },
          },
          'application/merge-patch+json',
        );
        for (const i of [0, 1, 2])
          await client.call('DELETE', `/api/v1/namespaces/${NS}/pods/${name}-ingester-${i}`);
      }
      await waitFor(
        'the older pods Ready',
        async () => {
          const pods = await client.call<{
            items: {
              metadata: { annotations?: Record<string, string>; deletionTimestamp?: string };
              status?: { conditions?: Condition[] };
            }[];
          }>(
            'GET',
            `/api/v1/namespaces/${NS}/pods?labelSelector=app.kubernetes.io%2Fcomponent%3Dingester`,
          );
          const older = pods.items.filter(
            (p) =>
              p.metadata.annotations?.['logsvc.io/config-hash'] === 'older' &&
              p.metadata.deletionTimestamp === undefined &&
              p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
          );
          return older.length === 6;
        },
        60_000,
      );
      await startReplica('operator-c');
      await waitFor(
        'both rolled',
        async () => fake.prepared.length === 6 && (await ready('up1')) && (await ready('up2')),
        180_000,
      ).catch(async (err: Error) => {
        const statuses = await Promise.all(['up1', 'up2'].map(async (n) => (await get(n))?.status));
        throw new Error(
          `${err.message}; prepared ${fake.prepared.join(',')}; ${JSON.stringify(statuses)}; ${logs.slice(-15).join(' | ')}`,
        );
      });
      const first = fake.prepared[0].split('-')[0];
      const second = first === 'up1' ? 'up2' : 'up1';
      expect(fake.prepared).toEqual([
        `${first}-ingester-2`,
        `${first}-ingester-1`,
        `${first}-ingester-0`,
        `${second}-ingester-2`,
        `${second}-ingester-1`,
        `${second}-ingester-0`,
      ]);
      const queued = (await eventsOf(second)).find((e) => e.reason === 'UpgradeQueued');
      expect(queued?.message).toContain(
        `waiting for LogService ${NS}/${first} to finish rolling first`,
      );
      for (const name of ['up1', 'up2']) await client.call('DELETE', `${LS}/${name}`);
    }, 300_000);

    // Last: its Nodes make the scheduler bind every pending pod of the namespace.
    it('spreads ingesters over nodes within their zones: the scheduler places them as rendered', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'logsvc-spread-'));
      const nodes = { 'n-a1': 'a', 'n-a2': 'a', 'n-b1': 'b', 'n-b2': 'b' };
      for (const [name, zone] of Object.entries(nodes))
        await client.call('POST', '/api/v1/nodes', {
          metadata: {
            name,
            labels: { [HOSTNAME_NODE_LABEL]: name, [ZONE_NODE_LABEL]: zone },
          },
        });
      // Ready Nodes with room, and volumes for the claims: what the scheduler needs.
      const tick = async () => {
        for (const name of Object.keys(nodes)) await markNodeReady(client, name);
        await provisionClaims(client, dir);
      };
      await tick();
      const timer = setInterval(() => void tick().catch(() => undefined), 2000);
      try {
        await client.call('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
          metadata: { name: 'spread-shared' },
          spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } },
        });
        const spec = {
          ...SHARED_CLAIM_SPEC,
          replicationFactor: 2,
          zones: ['a', 'b'],
          components: { ...SHARED_CLAIM_SPEC.components, ingester: { replicas: 2 } },
          storage: { ...SHARED_CLAIM_SPEC.storage, sharedClaimName: 'spread-shared' },
        };
        expect((await create('spread', spec)).status).toBe(201);
        type Pod = {
          metadata: { name: string };
          spec: { nodeName?: string; topologySpreadConstraints?: { topologyKey: string }[] };
        };
        const selector = encodeURIComponent(
          'app.kubernetes.io/instance=spread,app.kubernetes.io/component=ingester',
        );
        // Measured: scheduled within ~10s of the create; 6x that.
        const pods = await waitFor(
          '4 ingesters bound to nodes',
          async () => {
            const list = await client.call<{ items: Pod[] }>(
              'GET',
              `/api/v1/namespaces/${NS}/pods?labelSelector=${selector}`,
            );
            return list.items.length === 4 && list.items.every((p) => p.spec.nodeName)
              ? list.items
              : undefined;
          },
          60_000,
        );
        for (const zone of ['a', 'b']) {
          const inZone = pods.filter((p) => p.metadata.name.startsWith(`spread-ingester-${zone}-`));
          const placed = inZone.map((p) => p.spec.nodeName!).sort();
          // The zone's nodeSelector holds them in their zone, the spread on separate nodes.
          expect(placed, `zone ${zone}`).toEqual([`n-${zone}1`, `n-${zone}2`]);
          for (const pod of inZone)
            expect(pod.spec.topologySpreadConstraints?.map((c) => c.topologyKey)).toEqual([
              HOSTNAME_NODE_LABEL,
              ZONE_NODE_LABEL,
            ]);
        }
        await client.call('DELETE', `${LS}/spread`);
      } finally {
        clearInterval(timer);
        for (const name of Object.keys(nodes)) await client.raw('DELETE', `/api/v1/nodes/${name}`);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
