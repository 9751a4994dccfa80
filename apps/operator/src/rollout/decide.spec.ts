import { describe, expect, it } from 'vitest';
import {
  decideRollout,
  type ObservedPod,
  type ObservedSet,
  type RingMember,
  type RolloutDecision,
} from './decide';

const TIMEOUT = 10 * 60_000;

/**
 * A small simulated cluster: StatefulSets with OnDelete, a StatefulSet controller that
 * recreates a deleted pod at the update revision, pods that take a while to stop and to become
 * Ready, and a ring that follows the pods. The clock is fake: `tick(ms)` moves it.
 */
class SimCluster {
  now = 1_000_000;
  sets: ObservedSet[];
  pods = new Map<string, ObservedPod & { stopAt?: number; readyAt?: number; broken?: boolean }>();
  ring = new Map<string, RingMember>();
  prepared: string[] = [];
  deleted: string[] = [];
  stopMs = 20_000;
  readyMs = 30_000;

  maxUnavailablePerZone = 1;

  constructor(sets: { name: string; replicas: number; zone?: string }[]) {
    this.sets = sets.map((s) => ({
      ...s,
      generation: 1,
      observedGeneration: 1,
      updateRevision: 'rev-1',
    }));
    for (const set of this.sets)
      for (let i = 0; i < set.replicas; i++) this.addPod(set, `${set.name}-${i}`, true);
  }

  private addPod(set: ObservedSet, name: string, ready: boolean) {
    this.pods.set(name, {
      name,
      set: set.name,
      revision: set.updateRevision,
      ready,
      terminating: false,
      createdAt: this.now,
      readyAt: ready ? undefined : this.now + this.readyMs,
    });
    if (ready) this.ring.set(name, { id: name, state: 'ACTIVE', healthy: true, heartbeatAgeMs: 0 });
  }

  /** A spec change: every set gets a new update revision. */
  update(revision: string) {
    this.sets = this.sets.map((s) => ({
      ...s,
      generation: s.generation + 1,
      observedGeneration: s.generation + 1,
      updateRevision: revision,
    }));
  }

  tick(ms: number) {
    this.now += ms;
    for (const pod of [...this.pods.values()]) {
      if (pod.terminating && pod.stopAt !== undefined && this.now >= pod.stopAt) {
        this.pods.delete(pod.name);
        this.ring.delete(pod.name); // flushed and unregistered (prepare_shutdown)
        const set = this.sets.find((s) => s.name === pod.set)!;
        this.addPod(set, pod.name, false);
      } else if (
        !pod.ready &&
        !pod.broken &&
        pod.readyAt !== undefined &&
        this.now >= pod.readyAt
      ) {
        this.pods.set(pod.name, { ...pod, ready: true });
        this.ring.set(pod.name, {
          id: pod.name,
          state: 'ACTIVE',
          healthy: true,
          heartbeatAgeMs: 0,
        });
      }
    }
  }

  decide(): RolloutDecision {
    return decideRollout({
      now: this.now,
      sets: this.sets,
      pods: [...this.pods.values()],
      ring: { ok: true, members: [...this.ring.values()] },
      podReadyTimeoutMs: TIMEOUT,
      maxUnavailablePerZone: this.maxUnavailablePerZone,
    });
  }

  /** Carries a decision out, as the controller does. */
  act(decision: RolloutDecision) {
    if (decision.kind !== 'Replace') return;
    for (const name of [decision.pod, ...(decision.also ?? [])]) {
      if (decision.prepare) this.prepared.push(name);
      this.deleted.push(name);
      const pod = this.pods.get(name)!;
      this.pods.set(pod.name, { ...pod, terminating: true, stopAt: this.now + this.stopMs });
      const member = this.ring.get(pod.name);
      if (member) this.ring.set(pod.name, { ...member, state: 'LEAVING' });
    }
  }

  /** Runs reconcile every 2s of fake time until Idle or Halted; returns the decisions seen. */
  run(limitMs = 30 * 60_000): RolloutDecision[] {
    const seen: RolloutDecision[] = [];
    for (let t = 0; t < limitMs; t += 2000) {
      const d = this.decide();
      seen.push(d);
      if (d.kind === 'Idle' || d.kind === 'Halted') return seen;
      this.act(d);
      // Invariant the whole design is for: never two ingesters down at once; with zones, at
      // most maxUnavailablePerZone, all of one zone.
      const downPods = [...this.pods.values()].filter((p) => !p.ready || p.terminating);
      const missing = this.sets.reduce((n, s) => n + s.replicas, 0) - this.pods.size;
      expect(downPods.length + missing).toBeLessThanOrEqual(this.maxUnavailablePerZone);
      expect(new Set(downPods.map((p) => p.set)).size).toBeLessThanOrEqual(1);
      this.tick(2000);
    }
    throw new Error('rollout did not finish');
  }
}

describe('decideRollout', () => {
  it('is Idle when every ingester runs the current revision and the ring is healthy', () => {
    expect(new SimCluster([{ name: 'ls-ingester', replicas: 3 }]).decide()).toEqual({
      kind: 'Idle',
    });
  });

  it('replaces ingesters one at a time, highest ordinal first, each after prepare_shutdown', () => {
    const sim = new SimCluster([{ name: 'ls-ingester', replicas: 3 }]);
    sim.update('rev-2');
    const seen = sim.run();
    expect(seen.at(-1)).toEqual({ kind: 'Idle' });
    expect(sim.deleted).toEqual(['ls-ingester-2', 'ls-ingester-1', 'ls-ingester-0']);
    expect(sim.prepared).toEqual(sim.deleted);
    expect([...sim.pods.values()].every((p) => p.revision === 'rev-2' && p.ready)).toBe(true);
    const reasons = seen.filter((d) => d.kind === 'Wait').map((d) => d.reason);
    expect(reasons).toContain('ls-ingester-2 is shutting down (flushing, leaving the ring)');
    expect(reasons).toContain('waiting for ls-ingester-2 to be Ready');
  });

  it('walks zones in order, one pod at a time', () => {
    const sim = new SimCluster([
      { name: 'ls-ingester-a', replicas: 2 },
      { name: 'ls-ingester-b', replicas: 1 },
    ]);
    sim.update('rev-2');
    sim.run();
    expect(sim.deleted).toEqual(['ls-ingester-a-1', 'ls-ingester-a-0', 'ls-ingester-b-0']);
  });

  it('replaces up to maxUnavailablePerZone pods of one zone at a time, zone by zone', () => {
    const sim = new SimCluster([
      { name: 'ls-ingester-a', replicas: 3, zone: 'a' },
      { name: 'ls-ingester-b', replicas: 3, zone: 'b' },
    ]);
    sim.maxUnavailablePerZone = 2;
    sim.update('rev-2');
    const seen = sim.run();
    const batches = seen
      .filter((d) => d.kind === 'Replace')
      .map((d) => (d.kind === 'Replace' ? [d.pod, ...(d.also ?? [])] : []));
    expect(batches).toEqual([
      ['ls-ingester-a-2', 'ls-ingester-a-1'],
      ['ls-ingester-a-0'],
      ['ls-ingester-b-2', 'ls-ingester-b-1'],
      ['ls-ingester-b-0'],
    ]);
    expect(sim.prepared).toEqual(sim.deleted);
    expect(seen.at(-1)).toEqual({ kind: 'Idle' });
  });

  it('keeps one pod at a time in sets without a zone, whatever maxUnavailablePerZone says', () => {
    const sim = new SimCluster([{ name: 'ls-ingester', replicas: 3 }]);
    sim.maxUnavailablePerZone = 3;
    sim.update('rev-2');
    sim.run();
    expect(sim.deleted).toEqual(['ls-ingester-2', 'ls-ingester-1', 'ls-ingester-0']);
  });

  it('halts when a new pod is not Ready within the timeout, and resumes once it is', () => {
    const sim = new SimCluster([{ name: 'ls-ingester', replicas: 3 }]);
    sim.update('rev-2');
    sim.readyMs = Number.POSITIVE_INFINITY; // the new version does not start
    const seen = sim.run();
    const halted = seen.at(-1)!;
    expect(halted).toMatchObject({ kind: 'Halted', pod: 'ls-ingester-2' });
    expect(halted.kind === 'Halted' && halted.reason).toMatch(
      /^ls-ingester-2 is not Ready 6\d\ds after it was created \(timeout 600s\)$/,
    );
    expect(sim.deleted).toEqual(['ls-ingester-2']);
    // Still halted later: nothing else is touched.
    sim.tick(60_000);
    expect(sim.decide().kind).toBe('Halted');
    // Fixed (say, a good version): the pod is recreated and becomes Ready; the rollout goes on.
    sim.readyMs = 30_000;
    sim.update('rev-3');
    const resumed = sim.run();
    expect(resumed.at(-1)).toEqual({ kind: 'Idle' });
    expect([...sim.pods.values()].every((p) => p.revision === 'rev-3')).toBe(true);
  });

  it('waits while another ring member is not ACTIVE, and halts on a long-dead member', () => {
    const sim = new SimCluster([{ name: 'ls-ingester', replicas: 3 }]);
    sim.update('rev-2');
    sim.ring.set('ghost', { id: 'ghost', state: 'ACTIVE', healthy: false, heartbeatAgeMs: 90_000 });
    expect(sim.decide()).toMatchObject({
      kind: 'Wait',
      pod: 'ghost',
      reason: 'ring member ghost is unhealthy',
    });
    sim.ring.set('ghost', {
      id: 'ghost',
      state: 'ACTIVE',
      healthy: false,
      heartbeatAgeMs: TIMEOUT + 1,
    });
    expect(sim.decide()).toMatchObject({ kind: 'Halted', pod: 'ghost' });
    sim.ring.delete('ghost'); // forgotten on /ring
    expect(sim.decide()).toMatchObject({ kind: 'Replace', pod: 'ls-ingester-2', prepare: true });
  });

  it('replaces a broken pod of the old revision first, without prepare_shutdown', () => {
    const sim = new SimCluster([{ name: 'ls-ingester', replicas: 3 }]);
    const pod = sim.pods.get('ls-ingester-0')!;
    sim.pods.set(pod.name, { ...pod, ready: false });
    sim.ring.set(pod.name, {
      id: pod.name,
      state: 'ACTIVE',
      healthy: false,
      heartbeatAgeMs: 70_000,
    });
    sim.update('rev-2');
    expect(sim.decide()).toMatchObject({ kind: 'Replace', pod: 'ls-ingester-0', prepare: false });
  });

  it('decides from the observed state only: a restarted operator picks up halfway', () => {
    const sim = new SimCluster([{ name: 'ls-ingester', replicas: 3 }]);
    sim.update('rev-2');
    for (let i = 0; i < 40; i++) {
      sim.act(sim.decide());
      sim.tick(2000);
    }
    expect(sim.deleted).toEqual(['ls-ingester-2', 'ls-ingester-1']);
    // A "new operator" is just another call on the same observations.
    const rest = sim.run();
    expect(rest.at(-1)).toEqual({ kind: 'Idle' });
    expect(sim.deleted).toEqual(['ls-ingester-2', 'ls-ingester-1', 'ls-ingester-0']);
  });

  it('waits for the StatefulSet controller to see a new template', () => {
    const sim = new SimCluster([{ name: 'ls-ingester', replicas: 1 }]);
    sim.sets = sim.sets.map((s) => ({ ...s, generation: 2 }));
    expect(sim.decide()).toEqual({
      kind: 'Wait',
      reason: 'StatefulSet ls-ingester has not taken its new template yet',
    });
  });

  it('waits when the ring cannot be read', () => {
    const sim = new SimCluster([{ name: 'ls-ingester', replicas: 1 }]);
    sim.update('rev-2');
    const d = decideRollout({
      now: sim.now,
      sets: sim.sets,
      pods: [...sim.pods.values()],
      ring: { ok: false, error: 'connect ECONNREFUSED' },
      podReadyTimeoutMs: TIMEOUT,
    });
    expect(d).toEqual({
      kind: 'Wait',
      reason: 'cannot read the ingester ring: connect ECONNREFUSED',
    });
  });
});
