import type { ObservedPod } from './decide';

/** An ingester StatefulSet whose spec asks for fewer pods than it runs. */
export interface ScalingSet {
  readonly name: string;
  /** `spec.replicas` of the StatefulSet in the cluster. */
  readonly current: number;
  /** What the LogService asks for. */
  readonly desired: number;
}

export type ScaleDownStep =
  /** Nothing to scale down. */
  | { readonly kind: 'None' }
  /** Hold the sets at `replicas` until the cluster settles. */
  | {
      readonly kind: 'Wait';
      readonly replicas: Readonly<Record<string, number>>;
      readonly pod?: string;
      readonly reason: string;
    }
  /** prepare_shutdown on `pod` (it flushes and leaves the ring), then apply `replicas`. */
  | {
      readonly kind: 'Drain';
      readonly replicas: Readonly<Record<string, number>>;
      readonly pod: string;
      readonly reason: string;
    };

/**
 * Ingesters leave one at a time when their count goes down: the highest ordinal is drained
 * (prepare_shutdown: flush, leave the ring) and the StatefulSet shrinks by one; the next one
 * waits until that pod is gone and every other is Ready. Pure: read back each time.
 */
export function decideScaleDown(
  sets: readonly ScalingSet[],
  pods: readonly ObservedPod[],
): ScaleDownStep {
  const shrinking = sets.filter((s) => s.current > s.desired);
  if (shrinking.length === 0) return { kind: 'None' };
  const hold = Object.fromEntries(shrinking.map((s) => [s.name, s.current]));
  const stopping = pods.find((p) => p.terminating);
  if (stopping !== undefined)
    return {
      kind: 'Wait',
      replicas: hold,
      pod: stopping.name,
      reason: `scaling ingesters down: ${stopping.name} is shutting down (flushing, leaving the ring)`,
    };
  const unready = pods.find((p) => !p.ready);
  if (unready !== undefined)
    return {
      kind: 'Wait',
      replicas: hold,
      pod: unready.name,
      reason: `scaling ingesters down: waiting for ${unready.name} to be Ready first`,
    };
  const set = shrinking[0];
  const pod = `${set.name}-${set.current - 1}`;
  return {
    kind: 'Drain',
    replicas: { ...hold, [set.name]: set.current - 1 },
    pod,
    reason: `scaling ${set.name} down to ${set.desired}: draining ${pod} (prepare_shutdown, flush, leave the ring)`,
  };
}
