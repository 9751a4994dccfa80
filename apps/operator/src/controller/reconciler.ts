import {
  RULE_KIND,
  formatIssues,
  parseSpec,
  type LogServiceResource,
  type LogServiceSpec,
  type LogServiceStatus,
} from '@logsvc/operator-api';
import {
  ANNOTATION_TEMPLATE_HASH,
  LABEL_COMPONENT,
  LABEL_INSTANCE,
  LABEL_MANAGED_BY,
  MANAGED_BY,
  durationSeconds,
  etcdName,
  etcdPeerUrl,
  peerTlsOf,
  renderAll,
  type ClusterCapabilities,
  type ComponentPlan,
  type Manifest,
  type Owner,
  type SyncedRule,
} from '@logsvc/operator-render';
import type { KubeClient } from '../kube/client';
import { collectionPath, LOGSERVICE_API_VERSION, logServicePath, objectPath } from '../kube/paths';
import {
  decideRollout,
  type ObservedPod,
  type ObservedSet,
  type RolloutDecision,
} from '../rollout/decide';
import { NO_EVENTS, type EventSink, type EventSubject } from '../observe/events';
import type { OperatorMetrics, RolloutPhase } from '../observe/metrics';
import type { PodAccess } from './pod-access';
import {
  decideEtcd,
  holdPlan,
  observedFlags,
  needsMembers,
  type EtcdStep,
  type ObservedEtcdSet,
} from '../etcd/growth';
import type { EtcdAccess } from '../etcd/members';
import { decideScaleDown, type ScaleDownStep } from '../rollout/scale-down';
import { preflight } from './preflight';
import { checkRule, ruleStatus, selectRules, writeRuleStatus } from './rules';
import { UpgradeGate } from './upgrade-gate';
import { computeStatus, rolloutStatus, type ObservedWorkload, type Outcome } from './status';

export const FIELD_MANAGER = 'logsvc-operator';

export interface ReconcileResult {
  /** Reconcile again after this long (the rollout waits on the cluster). */
  readonly requeueAfterMs?: number;
}

export interface ReconcilerDeps {
  readonly client: KubeClient;
  readonly pods: PodAccess;
  /** etcd's member API, to grow the managed etcd (without it a growth waits). */
  readonly etcd?: EtcdAccess;
  readonly capabilities: ClusterCapabilities;
  readonly now?: () => Date;
  readonly log?: (message: string) => void;
  /** Where decisions are recorded (core/v1 Events). */
  readonly events?: EventSink;
  readonly metrics?: OperatorMetrics;
  /**
   * A status that would not change otherwise is still written when its `lastObservedTime`
   * is older than this (default 30s), so a live operator keeps it fresh.
   */
  readonly statusHeartbeatMs?: number;
}

type KubeObject = Record<string, unknown> & {
  metadata: {
    name: string;
    uid?: string;
    generation?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    ownerReferences?: { uid: string; name: string; kind: string }[];
  };
  status?: Record<string, unknown>;
};

/** Kinds the operator creates, for pruning what a spec no longer renders. */
const OWNED_KINDS = (caps: ClusterCapabilities) =>
  [
    ['v1', 'ConfigMap'],
    ['v1', 'Service'],
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'StatefulSet'],
    [caps.pdbApiVersion, 'PodDisruptionBudget'],
    ['v1', 'ServiceAccount'],
    ['rbac.authorization.k8s.io/v1', 'Role'],
    ['rbac.authorization.k8s.io/v1', 'RoleBinding'],
  ] as const;

/**
 * Brings one LogService's objects to what its spec renders, runs the ingester rollout one step,
 * and writes the status. Level-triggered: everything is read back from the cluster each time.
 */
export class Reconciler {
  private readonly now: () => Date;
  private readonly log: (message: string) => void;
  private readonly events: EventSink;
  private readonly gate = new UpgradeGate();

  constructor(private readonly deps: ReconcilerDeps) {
    this.now = deps.now ?? (() => new Date());
    this.log = deps.log ?? (() => {});
    this.events = deps.events ?? NO_EVENTS;
  }

  async reconcile(namespace: string, name: string): Promise<ReconcileResult> {
    const { client } = this.deps;
    const resource = await client.get<LogServiceResource>(logServicePath(namespace, name));
    // Gone: the garbage collector deletes what it owned (ownerReferences).
    const key = `${namespace}/${name}`;
    if (resource === undefined || resource.metadata.deletionTimestamp !== undefined) {
      this.deps.metrics?.rolloutPhase(namespace, name, undefined);
      this.gate.leave(key);
      return {};
    }
    const owner: Owner = {
      name,
      namespace,
      uid: resource.metadata.uid,
      generation: resource.metadata.generation,
    };
    const subject: EventSubject = {
      apiVersion: resource.apiVersion ?? LOGSERVICE_API_VERSION,
      kind: 'LogService',
      namespace,
      name,
      uid: resource.metadata.uid,
    };

    const parsed = parseSpec(resource.spec);
    if (!parsed.ok || parsed.spec.paused) this.gate.leave(key);
    if (!parsed.ok) {
      const onlyVersion = parsed.issues.every((i) => i.path === 'spec.version');
      await this.writeStatus(resource, subject, {
        ...(onlyVersion
          ? { kind: 'Blocked', reason: 'InvalidVersion' }
          : { kind: 'InvalidSpec' as const }),
        message: formatIssues(parsed.issues),
      } as Outcome);
      return {};
    }
    if (parsed.spec.paused) {
      await this.writeStatus(resource, subject, { kind: 'Paused' });
      return {};
    }
    let outcome: Outcome;
    let requeueAfterMs: number | undefined;
    try {
      const blocked = await preflight(client, namespace, parsed.spec, name);
      if (blocked !== undefined) {
        this.gate.leave(key);
        outcome = { kind: 'Blocked', ...blocked };
        // Secrets and StorageClasses are not watched: look again soon.
        requeueAfterMs = 15_000;
      } else {
        const converged = await this.converge(owner, subject, parsed.spec, resource);
        if ('deferred' in converged) {
          outcome = { kind: 'Deferred', message: converged.deferred };
          requeueAfterMs = 10_000;
        } else {
          const { workloads, rollout } = converged;
          outcome = { kind: 'Applied', workloads, rollout, version: parsed.spec.version };
          requeueAfterMs = requeueFor(rollout, workloads);
          const settled =
            rollout.kind === 'Idle' &&
            workloads.every((w) => w.observed && w.readyReplicas === w.replicas);
          if (settled) this.gate.leave(key);
        }
      }
    } catch (err) {
      outcome = { kind: 'ApplyFailed', message: (err as Error).message };
      requeueAfterMs = 15_000;
    }
    await this.writeStatus(resource, subject, outcome);
    return requeueAfterMs === undefined ? {} : { requeueAfterMs };
  }

  private async converge(
    owner: Owner,
    subject: EventSubject,
    spec: LogServiceSpec,
    resource: LogServiceResource,
  ): Promise<{ workloads: ObservedWorkload[]; rollout: RolloutDecision } | { deferred: string }> {
    const etcd = await this.etcdStep(owner, subject, spec);
    const rules = await this.syncRules(owner, spec);
    const rendered = renderAll(owner, spec, this.deps.capabilities, resource.spec, {
      ...(etcd === undefined ? {} : { etcd: etcd.plan }),
      rules,
    });
    const existing = await this.listOwned(owner);
    // Workloads that render differently although the spec did not change since the cluster
    // was last Ready on it: this operator renders them differently (an upgrade of it).
    const settledOnSpec =
      resource.status?.observedGeneration === resource.metadata.generation &&
      resource.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    const drifted = rendered.manifests.filter((m) => {
      const hash = m.metadata.annotations?.[ANNOTATION_TEMPLATE_HASH];
      const before = existing.get(`${m.kind}/${m.metadata.name}`);
      return hash !== undefined && before !== undefined && before.templateHash !== hash;
    });
    if (settledOnSpec && drifted.length > 0) {
      const entered = this.gate.enter(`${owner.namespace}/${owner.name}`);
      if (!entered.pass)
        return {
          deferred: `the operator renders ${drifted.map((m) => m.metadata.name).join(', ')} anew (an operator upgrade): waiting for LogService ${entered.holder} to finish rolling first`,
        };
    }
    // Fewer ingesters: they leave one at a time, drained first; the sets are held meanwhile.
    const scaling = await this.scaleDown(owner, rendered.components, existing);
    if (scaling.kind !== 'None')
      for (const [name, replicas] of Object.entries(scaling.replicas)) {
        const sts = rendered.manifests.find(
          (m) => m.kind === 'StatefulSet' && m.metadata.name === name,
        ) as (Manifest & { spec: { replicas: number } }) | undefined;
        if (sts !== undefined) sts.spec.replicas = replicas;
      }
    if (scaling.kind === 'Drain')
      this.events.record(subject, 'Normal', 'ScalingDown', scaling.reason);
    const applied = new Map<string, KubeObject>();
    for (const manifest of rendered.manifests) {
      const key = `${manifest.kind}/${manifest.metadata.name}`;
      applied.set(key, await this.apply(manifest));
      if (!existing.has(key))
        this.events.record(
          subject,
          'Normal',
          'Created',
          `created ${manifest.kind} ${manifest.metadata.name}`,
        );
    }
    await this.prune(owner, subject, rendered.manifests, existing);

    const workloads = rendered.components.map((plan) =>
      observeWorkload(plan, applied.get(`${plan.kind}/${plan.name}`)!),
    );
    // The managed etcd grows first, one member at a time; the ingesters roll after.
    if (etcd !== undefined && etcd.kind !== 'Steady')
      return { workloads, rollout: { kind: 'Wait', reason: etcd.reason } };
    if (scaling.kind !== 'None')
      return {
        workloads,
        rollout: {
          kind: 'Wait',
          ...(scaling.pod ? { pod: scaling.pod } : {}),
          reason: scaling.reason,
        },
      };
    const rolloutPlans = rendered.components.filter((p) => p.ringRollout);
    const rollout = await this.rollout(owner, spec, rolloutPlans, applied);
    return { workloads, rollout };
  }

  /**
   * The managed etcd's step (undefined without one): a member added to its member list when it
   * grows (the StatefulSet then starts that member's pod).
   */
  private async etcdStep(
    owner: Owner,
    subject: EventSubject,
    spec: LogServiceSpec,
  ): Promise<EtcdStep | undefined> {
    if (spec.mode === 'SingleBinary' || spec.ring.store !== 'managed') return undefined;
    const name = etcdName(owner);
    const sts = await this.deps.client.get<KubeObject & { spec?: Record<string, unknown> }>(
      objectPath('apps/v1', 'StatefulSet', owner.namespace, name),
    );
    const owned = sts?.metadata.ownerReferences?.some((r) => r.uid === owner.uid) ?? false;
    const stsSpec = sts?.spec as
      | {
          replicas?: number;
          template?: { spec?: { containers?: { command?: string[] }[] } };
        }
      | undefined;
    const set: ObservedEtcdSet | undefined =
      sts === undefined || !owned
        ? undefined
        : {
            replicas: stsSpec?.replicas ?? 1,
            readyReplicas:
              (sts.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0,
            ...observedFlags(stsSpec?.template?.spec?.containers?.[0]?.command),
          };
    const desired = spec.ring.managed.replicas;
    const input = {
      desired,
      peerTls: peerTlsOf(spec),
      name,
      peerUrl: (i: number, tls: boolean) => etcdPeerUrl(owner, i, tls),
      set,
    };
    if (!needsMembers(desired, set)) return decideEtcd(input);
    const target = {
      namespace: owner.namespace,
      pod: `${name}-0`,
      logService: owner.name,
      ...(spec.tls === undefined ? {} : { tls: spec.tls }),
    };
    const members =
      this.deps.etcd === undefined
        ? ({ ok: false, error: 'this operator has no etcd access' } as const)
        : await this.deps.etcd.listMembers(target);
    const step = decideEtcd({ ...input, members });
    if (step.kind !== 'Add') return step;
    try {
      await this.deps.etcd!.addMember(target, step.peerUrl);
    } catch (err) {
      // etcd refuses while a member joined less than 5s ago (strict reconfiguration).
      return {
        kind: 'Wait',
        plan: holdPlan(set!),
        reason: `${step.reason}: ${(err as Error).message}`,
      };
    }
    this.log(`etcd: ${step.reason}`);
    this.events.record(
      subject,
      'Normal',
      'EtcdMemberAdded',
      `added ${step.member} (${step.peerUrl}) to the managed etcd's member list; its pod starts next`,
    );
    return step;
  }

  /**
   * The valid LogServiceRules `spec.rules` selects, each one's Valid condition written; invalid
   * ones are left out of the ruler (and a Warning Event says why).
   */
  private async syncRules(owner: Owner, spec: LogServiceSpec): Promise<SyncedRule[]> {
    const valid: SyncedRule[] = [];
    for (const resource of await selectRules(this.deps.client, owner.namespace, spec)) {
      const verdict = checkRule(resource);
      if (verdict.ok) valid.push(verdict.rule);
      const status = ruleStatus(resource, verdict, this.now());
      const wasValid = resource.status?.conditions?.find((c) => c.type === 'Valid');
      if (!verdict.ok && (wasValid?.status !== 'False' || wasValid.message !== verdict.message))
        this.events.record(
          {
            apiVersion: LOGSERVICE_API_VERSION,
            kind: RULE_KIND,
            namespace: resource.metadata.namespace,
            name: resource.metadata.name,
            ...(resource.metadata.uid ? { uid: resource.metadata.uid } : {}),
          },
          'Warning',
          'InvalidRules',
          verdict.message,
        );
      await writeRuleStatus(this.deps.client, resource, status);
    }
    return valid;
  }

  /** The next step of scaling ingester sets down (prepare_shutdown done here). */
  private async scaleDown(
    owner: Owner,
    components: ComponentPlan[],
    existing: Map<string, { replicas?: number }>,
  ): Promise<ScaleDownStep> {
    const plans = components.filter((p) => p.ringRollout);
    const sets = plans.map((p) => ({
      name: p.name,
      current: existing.get(`StatefulSet/${p.name}`)?.replicas ?? p.replicas,
      desired: p.replicas,
    }));
    if (!sets.some((s) => s.current > s.desired)) return { kind: 'None' };
    const names = new Set(plans.map((p) => p.name));
    const selector = encodeURIComponent(
      `${LABEL_INSTANCE}=${owner.name},${LABEL_COMPONENT} in (${[...new Set(plans.map((p) => p.component))].join(',')})`,
    );
    const list = await this.deps.client.call<{ items: KubeObject[] }>(
      'GET',
      `${collectionPath('v1', 'Pod', owner.namespace)}?labelSelector=${selector}`,
    );
    const step = decideScaleDown(
      sets,
      list.items.map(observePod).filter((p) => names.has(p.set)),
    );
    if (step.kind !== 'Drain') return step;
    try {
      await this.deps.pods.prepareShutdown(owner.namespace, step.pod);
    } catch (err) {
      return {
        kind: 'Wait',
        replicas: Object.fromEntries(sets.map((s) => [s.name, Math.max(s.current, s.desired)])),
        pod: step.pod,
        reason: `scaling ingesters down: prepare_shutdown on ${step.pod}: ${(err as Error).message}`,
      };
    }
    this.log(`scale down: ${step.reason}`);
    return step;
  }

  /** Server-side apply: the operator owns the fields it sets, others' fields are kept. */
  private apply(manifest: Manifest): Promise<KubeObject> {
    const path = objectPath(
      manifest.apiVersion,
      manifest.kind,
      manifest.metadata.namespace!,
      manifest.metadata.name,
    );
    return this.deps.client.call<KubeObject>(
      'PATCH',
      `${path}?fieldManager=${FIELD_MANAGER}&force=true`,
      manifest,
      'application/apply-patch+yaml',
    );
  }

  /** The objects this LogService owns, by `Kind/name`, with their apiVersion. */
  private async listOwned(
    owner: Owner,
  ): Promise<Map<string, { apiVersion: string; templateHash?: string; replicas?: number }>> {
    const selector = encodeURIComponent(
      `${LABEL_INSTANCE}=${owner.name},${LABEL_MANAGED_BY}=${MANAGED_BY}`,
    );
    const owned = new Map<
      string,
      { apiVersion: string; templateHash?: string; replicas?: number }
    >();
    for (const [apiVersion, kind] of OWNED_KINDS(this.deps.capabilities)) {
      const list = await this.deps.client.call<{ items: KubeObject[] }>(
        'GET',
        `${collectionPath(apiVersion, kind, owner.namespace)}?labelSelector=${selector}`,
      );
      for (const item of list.items)
        if (item.metadata.ownerReferences?.some((r) => r.uid === owner.uid))
          owned.set(`${kind}/${item.metadata.name}`, {
            apiVersion,
            templateHash: item.metadata.annotations?.[ANNOTATION_TEMPLATE_HASH],
            replicas: (item.spec as { replicas?: number } | undefined)?.replicas,
          });
    }
    return owned;
  }

  /** Deletes owned objects the spec no longer renders (a removed zone, a disabled ruler). */
  private async prune(
    owner: Owner,
    subject: EventSubject,
    manifests: Manifest[],
    existing: Map<string, { apiVersion: string }>,
  ): Promise<void> {
    const wanted = new Set(manifests.map((m) => `${m.kind}/${m.metadata.name}`));
    for (const [key, { apiVersion }] of existing) {
      if (wanted.has(key)) continue;
      const [kind, name] = key.split('/');
      this.log(`deleting ${kind} ${owner.namespace}/${name}: no longer in the spec`);
      const res = await this.deps.client.raw(
        'DELETE',
        objectPath(apiVersion, kind, owner.namespace, name),
        { propagationPolicy: 'Background' },
      );
      if (res.status >= 300 && res.status !== 404)
        throw new Error(`deleting ${kind} ${name}: ${res.status} ${res.text.slice(0, 200)}`);
      this.events.record(
        subject,
        'Normal',
        'Deleted',
        `deleted ${kind} ${name}: no longer in the spec`,
      );
    }
  }

  /** One step of the ring-aware rollout of the ingester StatefulSets. */
  private async rollout(
    owner: Owner,
    spec: LogServiceSpec,
    plans: ComponentPlan[],
    applied: Map<string, KubeObject>,
  ): Promise<RolloutDecision> {
    const sets: ObservedSet[] = plans.map((plan) => {
      const sts = applied.get(`StatefulSet/${plan.name}`)!;
      const status = (sts.status ?? {}) as { observedGeneration?: number; updateRevision?: string };
      return {
        name: plan.name,
        replicas: plan.replicas,
        generation: sts.metadata.generation ?? 0,
        observedGeneration: status.observedGeneration ?? 0,
        updateRevision: status.updateRevision,
        ...(plan.zone !== undefined ? { zone: plan.zone } : {}),
      };
    });
    const components = [...new Set(plans.map((p) => p.component))];
    const selector = encodeURIComponent(
      `${LABEL_INSTANCE}=${owner.name},${LABEL_COMPONENT} in (${components.join(',')})`,
    );
    const list = await this.deps.client.call<{ items: KubeObject[] }>(
      'GET',
      `${collectionPath('v1', 'Pod', owner.namespace)}?labelSelector=${selector}`,
    );
    const setNames = new Set(sets.map((s) => s.name));
    const pods = list.items.map(observePod).filter((p) => setNames.has(p.set));

    const readable = [...pods].sort((a, b) => Number(b.ready) - Number(a.ready))[0];
    const ring =
      readable?.ready === true
        ? await this.deps.pods.readRing(owner.namespace, readable.name)
        : ({ ok: false, error: 'no Ready ingester to read the ring from' } as const);
    const decision = decideRollout({
      now: this.now().getTime(),
      sets,
      pods,
      ring,
      podReadyTimeoutMs: durationSeconds(spec.rollout.podReadyTimeout) * 1000,
      maxUnavailablePerZone: spec.rollout.maxUnavailablePerZone,
    });
    if (decision.kind !== 'Replace') return decision;

    for (const name of [decision.pod, ...(decision.also ?? [])]) {
      const pod = list.items.find((p) => p.metadata.name === name)!;
      if (decision.prepare) {
        try {
          await this.deps.pods.prepareShutdown(owner.namespace, name);
        } catch (err) {
          return { kind: 'Wait', pod: name, reason: (err as Error).message };
        }
      }
      this.log(`rollout: ${name === decision.pod ? decision.reason : `replacing ${name} too`}`);
      const res = await this.deps.client.raw(
        'DELETE',
        objectPath('v1', 'Pod', owner.namespace, name),
        // Only this pod: if it was already replaced meanwhile, its uid differs.
        { preconditions: { uid: pod.metadata.uid } },
      );
      if (res.status >= 300 && res.status !== 404 && res.status !== 409)
        throw new Error(`deleting pod ${name}: ${res.status} ${res.text.slice(0, 200)}`);
      if (res.status < 300)
        this.events.record(
          {
            apiVersion: LOGSERVICE_API_VERSION,
            kind: 'LogService',
            namespace: owner.namespace,
            name: owner.name,
            uid: owner.uid,
          },
          'Normal',
          'ReplacingPod',
          `replacing pod ${name}: ${decision.reason}`,
        );
    }
    return decision;
  }

  private async writeStatus(
    resource: LogServiceResource,
    subject: EventSubject,
    outcome: Outcome,
  ): Promise<void> {
    const previous = resource.status;
    const status = computeStatus(previous, resource.metadata.generation ?? 0, outcome, this.now());
    this.recordDecisions(subject, previous, status);
    this.deps.metrics?.rolloutPhase(
      subject.namespace,
      subject.name,
      outcome.kind === 'Applied'
        ? (rolloutStatus(outcome.rollout).phase as RolloutPhase)
        : 'Blocked',
    );
    const withoutTime = (s: LogServiceStatus | undefined) =>
      JSON.stringify({ ...s, lastObservedTime: undefined });
    const age = this.now().getTime() - (Date.parse(previous?.lastObservedTime ?? '') || 0);
    if (
      withoutTime(status) === withoutTime(previous) &&
      age < (this.deps.statusHeartbeatMs ?? 30_000)
    )
      return;
    await this.deps.client.call(
      'PATCH',
      `${logServicePath(resource.metadata.namespace, resource.metadata.name)}/status`,
      {
        status: statusPatch(
          previous as Record<string, unknown> | undefined,
          status as Record<string, unknown>,
        ),
      },
      'application/merge-patch+json',
    );
  }

  /** Events for what changed between two statuses: waits, halts, resumes, refusals. */
  private recordDecisions(
    subject: EventSubject,
    before: LogServiceStatus | undefined,
    after: LogServiceStatus,
  ): void {
    const degraded = (s: LogServiceStatus | undefined) =>
      s?.conditions?.find((c) => c.type === 'Degraded');
    const [was, is] = [degraded(before), degraded(after)];
    if (is?.status === 'True' && is.reason !== 'RolloutHalted')
      if (was?.status !== 'True' || was.reason !== is.reason || was.message !== is.message)
        this.events.record(subject, 'Warning', is.reason, is.message);
    if (was?.status === 'True' && was.reason !== 'RolloutHalted' && is?.status !== 'True')
      this.events.record(
        subject,
        'Normal',
        'Resolved',
        `${was.reason} resolved: applying the spec`,
      );

    const progressing = (s: LogServiceStatus | undefined) =>
      s?.conditions?.find((c) => c.type === 'Progressing')?.reason;
    const [p0, p1] = [progressing(before), progressing(after)];
    if (p1 === 'Paused' && p0 !== 'Paused')
      this.events.record(subject, 'Normal', 'Paused', 'spec.paused: the operator changes nothing');
    if (p1 === 'UpgradeQueued' && p0 !== 'UpgradeQueued')
      this.events.record(
        subject,
        'Normal',
        'UpgradeQueued',
        after.conditions?.find((c) => c.type === 'Progressing')?.message ?? '',
      );
    if (p0 === 'Paused' && p1 !== 'Paused')
      this.events.record(subject, 'Normal', 'Resumed', 'spec.paused is false again: managing');

    const [r0, r1] = [before?.rollout, after.rollout];
    if (r1 === undefined) return;
    const same = r0?.phase === r1.phase && r0?.pod === r1.pod && r0?.message === r1.message;
    if (same) return;
    if (r1.phase === 'Waiting') this.events.record(subject, 'Normal', 'Waiting', r1.message ?? '');
    if (r1.phase === 'Halted')
      this.events.record(subject, 'Warning', 'RolloutHalted', r1.message ?? '');
    if (r0?.phase === 'Halted' && r1.phase !== 'Halted')
      this.events.record(
        subject,
        'Normal',
        'RolloutResumed',
        `rollout resumed: ${r1.message ?? r1.phase}`,
      );
    if (r0 !== undefined && r0.phase !== 'Idle' && r1.phase === 'Idle')
      this.events.record(
        subject,
        'Normal',
        'RolloutFinished',
        'every ingester runs the current revision',
      );
  }
}

function observeWorkload(plan: ComponentPlan, object: KubeObject): ObservedWorkload {
  const status = (object.status ?? {}) as {
    readyReplicas?: number;
    updatedReplicas?: number;
    observedGeneration?: number;
  };
  return {
    component: plan.component,
    kind: plan.kind,
    name: plan.name,
    replicas: plan.replicas,
    readyReplicas: status.readyReplicas ?? 0,
    updatedReplicas: status.updatedReplicas ?? 0,
    observed: (status.observedGeneration ?? 0) >= (object.metadata.generation ?? 0),
  };
}

function observePod(pod: KubeObject): ObservedPod {
  const status = (pod.status ?? {}) as { conditions?: { type: string; status: string }[] };
  return {
    name: pod.metadata.name,
    set: pod.metadata.ownerReferences?.find((r) => r.kind === 'StatefulSet')?.name ?? '',
    revision: pod.metadata.labels?.['controller-revision-hash'],
    ready: status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
    terminating: pod.metadata.deletionTimestamp !== undefined,
    createdAt: Date.parse(pod.metadata.creationTimestamp ?? '') || 0,
  };
}

function requeueFor(rollout: RolloutDecision, workloads: ObservedWorkload[]): number | undefined {
  switch (rollout.kind) {
    case 'Replace':
      return 2000;
    case 'Wait':
      return 5000;
    case 'Halted':
      return 30_000;
    case 'Idle':
      // Workload changes arrive as watch events; this only bounds a missed one.
      return workloads.every((w) => w.readyReplicas === w.replicas && w.observed)
        ? undefined
        : 10_000;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON merge patch (RFC 7386) turning `before` into `after`: merge patches merge maps
 * recursively, so keys that vanished, at any depth, must be sent as null.
 */
export function statusPatch(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before?.[key];
    patch[key] = isPlainObject(old) && isPlainObject(value) ? statusPatch(old, value) : value;
  }
  for (const key of Object.keys(before ?? {})) if (!(key in after)) patch[key] = null;
  return patch;
}
