// The ring-aware rollout of ingesters: a pure function from what the cluster looks like now to
// the one next step. It keeps no state of its own, so an operator restarted halfway carries on
// from what it reads back (pods' revision labels, deletion timestamps, the ring page).

/** An ingester StatefulSet (`updateStrategy: OnDelete`). */
export interface ObservedSet {
  readonly name: string;
  readonly replicas: number;
  readonly generation: number;
  readonly observedGeneration: number;
  /** `status.updateRevision`: the revision new pods get. */
  readonly updateRevision: string | undefined;
  /** The zone of a zone-aware set: its pods may be replaced several at a time. */
  readonly zone?: string;
}

export interface ObservedPod {
  readonly name: string;
  /** The StatefulSet that owns it. */
  readonly set: string;
  /** Its `controller-revision-hash` label. */
  readonly revision: string | undefined;
  /** Its Ready condition (from `/ready`). */
  readonly ready: boolean;
  /** `metadata.deletionTimestamp` is set: it is shutting down. */
  readonly terminating: boolean;
  /** `metadata.creationTimestamp`, ms. */
  readonly createdAt: number;
}

export interface RingMember {
  readonly id: string;
  readonly state: string;
  readonly healthy: boolean;
  readonly heartbeatAgeMs: number;
}

export type RingView =
  | { readonly ok: true; readonly members: readonly RingMember[] }
  | { readonly ok: false; readonly error: string };

export interface RolloutInput {
  readonly now: number;
  readonly sets: readonly ObservedSet[];
  readonly pods: readonly ObservedPod[];
  readonly ring: RingView;
  /** How long a new pod may take to be Ready, and a ring member to be unhealthy. */
  readonly podReadyTimeoutMs: number;
  /**
   * Pods of one zone-aware set replaced in one step (default 1), as rollout-operator's
   * maxUnavailable: with zone-aware replication every stream also lives in the other zones.
   */
  readonly maxUnavailablePerZone?: number;
}

export type RolloutDecision =
  /** Every ingester runs the current revision and the ring is healthy. */
  | { readonly kind: 'Idle' }
  /** Call `/ingester/prepare_shutdown` on the pod (when `prepare`), then delete it. */
  | {
      readonly kind: 'Replace';
      readonly pod: string;
      /** More pods of the same zone replaced in the same step (prepared and deleted alike). */
      readonly also?: readonly string[];
      readonly prepare: boolean;
      readonly reason: string;
    }
  | { readonly kind: 'Wait'; readonly pod?: string; readonly reason: string }
  /** Stuck past the timeout: report Degraded; resumes by itself once the cause is gone. */
  | { readonly kind: 'Halted'; readonly pod?: string; readonly reason: string };

const ordinalOf = (pod: string) => Number(/-(\d+)$/.exec(pod)?.[1] ?? -1);
const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;

export function decideRollout(input: RolloutInput): RolloutDecision {
  const { now, sets, pods, ring, podReadyTimeoutMs } = input;
  const setByName = new Map(sets.map((s) => [s.name, s]));

  for (const set of sets) {
    if (set.observedGeneration < set.generation || set.updateRevision === undefined)
      return { kind: 'Wait', reason: `StatefulSet ${set.name} has not taken its new template yet` };
  }
  const isCurrent = (pod: ObservedPod) => pod.revision === setByName.get(pod.set)?.updateRevision;

  // 1. A pod shutting down: it flushes and leaves the ring; nothing else moves meanwhile.
  const stopping = pods.find((p) => p.terminating);
  if (stopping !== undefined)
    return {
      kind: 'Wait',
      pod: stopping.name,
      reason: `${stopping.name} is shutting down (flushing, leaving the ring)`,
    };

  // 2. Every pod of every set exists (the StatefulSet controller recreates a deleted one).
  for (const set of sets) {
    for (let i = 0; i < set.replicas; i++) {
      const name = `${set.name}-${i}`;
      if (!pods.some((p) => p.name === name))
        return { kind: 'Wait', pod: name, reason: `${name} is being created` };
    }
  }

  // 3. Pods of the current revision must be Ready, within the timeout.
  for (const pod of pods) {
    if (!isCurrent(pod) || pod.ready) continue;
    const age = now - pod.createdAt;
    if (age > podReadyTimeoutMs)
      return {
        kind: 'Halted',
        pod: pod.name,
        reason: `${pod.name} is not Ready ${seconds(age)} after it was created (timeout ${seconds(podReadyTimeoutMs)})`,
      };
    return { kind: 'Wait', pod: pod.name, reason: `waiting for ${pod.name} to be Ready` };
  }

  const outdated = pods
    .filter((p) => !isCurrent(p))
    .sort(
      (a, b) =>
        sets.findIndex((s) => s.name === a.set) - sets.findIndex((s) => s.name === b.set) ||
        ordinalOf(b.name) - ordinalOf(a.name),
    );
  // A broken pod of the old revision serves nothing: replace it first, whatever the ring says.
  const broken = outdated.find((p) => !p.ready);
  if (broken !== undefined)
    return {
      kind: 'Replace',
      pod: broken.name,
      prepare: false,
      reason: `${broken.name} runs an old revision and is not Ready`,
    };

  // 4. The ring: every Ready pod ACTIVE, every member ACTIVE and healthy.
  if (!ring.ok) return { kind: 'Wait', reason: `cannot read the ingester ring: ${ring.error}` };
  for (const pod of pods) {
    const member = ring.members.find((m) => m.id === pod.name);
    if (member === undefined || member.state !== 'ACTIVE')
      return {
        kind: 'Wait',
        pod: pod.name,
        reason: `waiting for ${pod.name} to be ACTIVE in the ring (${member?.state ?? 'absent'})`,
      };
  }
  for (const member of ring.members) {
    if (member.healthy && member.state === 'ACTIVE') continue;
    const why = member.healthy ? member.state : 'unhealthy';
    if (!member.healthy && member.heartbeatAgeMs > podReadyTimeoutMs)
      return {
        kind: 'Halted',
        pod: member.id,
        reason: `ring member ${member.id} is unhealthy (no heartbeat for ${seconds(member.heartbeatAgeMs)}); forget it on /ring if it is gone`,
      };
    return { kind: 'Wait', pod: member.id, reason: `ring member ${member.id} is ${why}` };
  }

  // 5. One old pod at a time, the highest ordinal of the first set first; in a zone-aware
  // set up to maxUnavailablePerZone of its pods at once (one zone at a time).
  const next = outdated[0];
  if (next === undefined) return { kind: 'Idle' };
  const zone = setByName.get(next.set)?.zone;
  const batch =
    zone === undefined
      ? [next]
      : outdated
          .filter((p) => p.set === next.set)
          .slice(0, Math.max(1, input.maxUnavailablePerZone ?? 1));
  if (batch.length > 1)
    return {
      kind: 'Replace',
      pod: next.name,
      also: batch.slice(1).map((p) => p.name),
      prepare: true,
      reason: `replacing ${batch.map((p) => p.name).join(', ')} of zone ${zone} (${outdated.length} ingesters left on the old revision)`,
    };
  return {
    kind: 'Replace',
    pod: next.name,
    prepare: true,
    reason: `replacing ${next.name} (${outdated.length} ingester${outdated.length === 1 ? '' : 's'} left on the old revision)`,
  };
}
