import type {
  ComponentStatus,
  Condition,
  LogServiceStatus,
  RolloutStatus,
} from '@logsvc/operator-api';
import type { RolloutDecision } from '../rollout/decide';

/** One workload as read back from the cluster. */
export interface ObservedWorkload {
  readonly component: string;
  readonly kind: 'Deployment' | 'StatefulSet';
  readonly name: string;
  readonly replicas: number;
  /** Absent when the controller has not reported yet. */
  readonly readyReplicas: number;
  readonly updatedReplicas: number;
  /** status.observedGeneration caught up with metadata.generation. */
  readonly observed: boolean;
}

export type Outcome =
  | { readonly kind: 'InvalidSpec'; readonly message: string }
  /** `spec.paused`: nothing was applied. */
  | { readonly kind: 'Paused' }
  /** Operator-driven workload changes wait for another LogService (UpgradeGate). */
  | { readonly kind: 'Deferred'; readonly message: string }
  /** A check before apply failed (a missing Secret or StorageClass, a bad version). */
  | { readonly kind: 'Blocked'; readonly reason: string; readonly message: string }
  | { readonly kind: 'ApplyFailed'; readonly message: string }
  | {
      readonly kind: 'Applied';
      readonly workloads: readonly ObservedWorkload[];
      readonly rollout: RolloutDecision;
      readonly version: string;
    };

type ConditionStatus = Condition['status'];

function condition(
  previous: readonly Condition[],
  type: string,
  status: ConditionStatus,
  reason: string,
  message: string,
  generation: number,
  now: string,
): Condition {
  const before = previous.find((c) => c.type === type);
  return {
    type,
    status,
    reason,
    message,
    // Changes only when the status flips, as metav1.Condition wants.
    lastTransitionTime:
      before !== undefined && before.status === status ? before.lastTransitionTime : now,
    observedGeneration: generation,
  };
}

/** Per component: summed over the component's workloads (zones). */
export function componentStatuses(
  workloads: readonly ObservedWorkload[],
): Record<string, ComponentStatus> {
  const out: Record<string, ComponentStatus> = {};
  for (const w of workloads) {
    const c = out[w.component] ?? {
      kind: w.kind,
      replicas: 0,
      readyReplicas: 0,
      updatedReplicas: 0,
    };
    out[w.component] = {
      kind: w.kind,
      replicas: c.replicas + w.replicas,
      readyReplicas: c.readyReplicas + w.readyReplicas,
      updatedReplicas: c.updatedReplicas + (w.observed ? w.updatedReplicas : 0),
    };
  }
  return out;
}

export function rolloutStatus(decision: RolloutDecision): RolloutStatus {
  switch (decision.kind) {
    case 'Idle':
      return { phase: 'Idle' };
    case 'Replace':
      return { phase: 'Replacing', pod: decision.pod, message: decision.reason };
    case 'Wait':
      return {
        phase: 'Waiting',
        ...(decision.pod ? { pod: decision.pod } : {}),
        message: decision.reason,
      };
    case 'Halted':
      return {
        phase: 'Halted',
        ...(decision.pod ? { pod: decision.pod } : {}),
        message: decision.reason,
      };
  }
}

/** The LogService's status after a reconcile. */
export function computeStatus(
  previous: LogServiceStatus | undefined,
  generation: number,
  outcome: Outcome,
  now: Date,
): LogServiceStatus {
  const before = previous?.conditions ?? [];
  const at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const make = (type: string, status: ConditionStatus, reason: string, message: string) =>
    condition(before, type, status, reason, message, generation, at);

  if (outcome.kind === 'Paused' || outcome.kind === 'Deferred') {
    const kept = (type: string) => before.find((c) => c.type === type);
    const paused = outcome.kind === 'Paused';
    const message = paused ? 'spec.paused is true: the operator changes nothing' : outcome.message;
    const reason = paused ? 'Paused' : 'UpgradeQueued';
    return {
      ...(previous?.version !== undefined ? { version: previous.version } : {}),
      ...(previous?.components !== undefined ? { components: previous.components } : {}),
      ...(previous?.rollout !== undefined ? { rollout: previous.rollout } : {}),
      observedGeneration: generation,
      lastObservedTime: at,
      conditions: [
        kept('Ready') ?? make('Ready', 'Unknown', reason, message),
        make('Progressing', paused ? 'False' : 'True', reason, message),
        kept('Degraded') ?? make('Degraded', 'False', reason, message),
      ],
    };
  }
  if (outcome.kind !== 'Applied') {
    const reason = outcome.kind === 'Blocked' ? outcome.reason : outcome.kind;
    return {
      ...(previous?.version !== undefined ? { version: previous.version } : {}),
      ...(previous?.components !== undefined ? { components: previous.components } : {}),
      observedGeneration: generation,
      lastObservedTime: at,
      conditions: [
        make('Ready', 'False', reason, outcome.message),
        make('Progressing', 'False', reason, outcome.message),
        make('Degraded', 'True', reason, outcome.message),
      ],
    };
  }

  const components = componentStatuses(outcome.workloads);
  const lagging = Object.entries(components)
    .filter(([, c]) => c.readyReplicas < c.replicas || c.updatedReplicas < c.replicas)
    .map(
      ([name, c]) =>
        `${name}: ${c.readyReplicas}/${c.replicas} ready, ${c.updatedReplicas} updated`,
    );
  const { rollout } = outcome;
  const settled = lagging.length === 0 && rollout.kind === 'Idle';
  const halted = rollout.kind === 'Halted';

  const conditions = [
    settled
      ? make('Ready', 'True', 'AllComponentsReady', 'every component is ready and up to date')
      : make(
          'Ready',
          'False',
          halted ? 'RolloutHalted' : 'ComponentsNotReady',
          halted ? rollout.reason : lagging.join('; ') || rolloutStatus(rollout).message || '',
        ),
    halted
      ? make('Progressing', 'False', 'RolloutHalted', rollout.reason)
      : settled
        ? make('Progressing', 'False', 'Stable', 'nothing to do')
        : make(
            'Progressing',
            'True',
            rollout.kind === 'Idle'
              ? 'Reconciling'
              : rollout.kind === 'Replace'
                ? 'ReplacingIngester'
                : 'WaitingForIngesters',
            rollout.kind === 'Idle' ? lagging.join('; ') : (rolloutStatus(rollout).message ?? ''),
          ),
    halted
      ? make('Degraded', 'True', 'RolloutHalted', rollout.reason)
      : make('Degraded', 'False', 'AsExpected', 'no problem seen'),
  ];
  return {
    observedGeneration: generation,
    lastObservedTime: at,
    // The version every pod runs: the spec's once all are up to date, else what ran before.
    ...(settled
      ? { version: outcome.version }
      : previous?.version !== undefined
        ? { version: previous.version }
        : {}),
    conditions,
    components,
    rollout: rolloutStatus(rollout),
  };
}
