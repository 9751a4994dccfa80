import { describe, expect, it } from 'vitest';
import { computeStatus, type ObservedWorkload } from './status';

const ingesters = (ready: number, updated = 3): ObservedWorkload => ({
  component: 'ingester',
  kind: 'StatefulSet',
  name: 'ls-ingester',
  replicas: 3,
  readyReplicas: ready,
  updatedReplicas: updated,
  observed: true,
});
const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-01T00:05:00Z');
const cond = (s: ReturnType<typeof computeStatus>, type: string) =>
  s.conditions!.find((c) => c.type === type)!;

describe('computeStatus', () => {
  it('is Ready with the spec version once every component is ready and the rollout idle', () => {
    const s = computeStatus(
      undefined,
      4,
      { kind: 'Applied', workloads: [ingesters(3)], rollout: { kind: 'Idle' }, version: '1.2.0' },
      t0,
    );
    expect(s).toMatchObject({
      observedGeneration: 4,
      version: '1.2.0',
      components: { ingester: { readyReplicas: 3 } },
      rollout: { phase: 'Idle' },
    });
    expect(cond(s, 'Ready')).toMatchObject({
      status: 'True',
      reason: 'AllComponentsReady',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
    expect(cond(s, 'Progressing')).toMatchObject({ status: 'False', reason: 'Stable' });
  });

  it('keeps the running version and the transition time while a rollout goes on', () => {
    const ready = computeStatus(
      undefined,
      1,
      { kind: 'Applied', workloads: [ingesters(3)], rollout: { kind: 'Idle' }, version: '1.0.0' },
      t0,
    );
    const rolling = computeStatus(
      ready,
      2,
      {
        kind: 'Applied',
        workloads: [ingesters(2, 1)],
        rollout: {
          kind: 'Wait',
          pod: 'ls-ingester-2',
          reason: 'waiting for ls-ingester-2 to be Ready',
        },
        version: '1.1.0',
      },
      t1,
    );
    expect(rolling.version).toBe('1.0.0');
    expect(cond(rolling, 'Ready')).toMatchObject({
      status: 'False',
      message: 'ingester: 2/3 ready, 1 updated',
      lastTransitionTime: '2026-01-01T00:05:00Z',
    });
    expect(cond(rolling, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'WaitingForIngesters',
    });
    // Degraded stayed False: its transition time is the first one.
    expect(cond(rolling, 'Degraded')).toMatchObject({
      status: 'False',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
  });

  it('reports a halted rollout and an invalid spec as Degraded with the reason', () => {
    const halted = computeStatus(
      undefined,
      3,
      {
        kind: 'Applied',
        workloads: [ingesters(2)],
        rollout: {
          kind: 'Halted',
          pod: 'ls-ingester-2',
          reason: 'ls-ingester-2 is not Ready 601s after it was created (timeout 600s)',
        },
        version: '2',
      },
      t0,
    );
    expect(cond(halted, 'Degraded')).toMatchObject({ status: 'True', reason: 'RolloutHalted' });
    expect(halted.rollout).toMatchObject({ phase: 'Halted', pod: 'ls-ingester-2' });
    const invalid = computeStatus(
      halted,
      4,
      { kind: 'InvalidSpec', message: 'spec.zones: zone-aware ingesters need mode Microservices' },
      t1,
    );
    expect(cond(invalid, 'Degraded')).toMatchObject({
      status: 'True',
      reason: 'InvalidSpec',
      message: 'spec.zones: zone-aware ingesters need mode Microservices',
      observedGeneration: 4,
    });
  });
});

describe('computeStatus, blocked and observed', () => {
  it('stamps when it was observed and names the reason of a check before apply', () => {
    const s = computeStatus(
      undefined,
      2,
      { kind: 'Blocked', reason: 'S3SecretMissing', message: 'Secret ns/logs-s3 does not exist' },
      t1,
    );
    expect(s.lastObservedTime).toBe('2026-01-01T00:05:00Z');
    expect(cond(s, 'Degraded')).toMatchObject({
      status: 'True',
      reason: 'S3SecretMissing',
      message: 'Secret ns/logs-s3 does not exist',
    });
    const applied = computeStatus(
      s,
      2,
      { kind: 'Applied', workloads: [ingesters(3)], rollout: { kind: 'Idle' }, version: '1' },
      t0,
    );
    expect(applied.lastObservedTime).toBe('2026-01-01T00:00:00Z');
  });
});

describe('computeStatus, paused', () => {
  it('keeps what was seen and says it is paused', () => {
    const ready = computeStatus(
      undefined,
      1,
      { kind: 'Applied', workloads: [ingesters(3)], rollout: { kind: 'Idle' }, version: '1.0.0' },
      t0,
    );
    const paused = computeStatus(ready, 2, { kind: 'Paused' }, t1);
    expect(paused).toMatchObject({
      observedGeneration: 2,
      version: '1.0.0',
      rollout: { phase: 'Idle' },
      lastObservedTime: '2026-01-01T00:05:00Z',
    });
    expect(cond(paused, 'Ready')).toEqual(cond(ready, 'Ready'));
    expect(cond(paused, 'Progressing')).toMatchObject({ status: 'False', reason: 'Paused' });
  });
});

describe('computeStatus, deferred by an operator upgrade', () => {
  it('is Progressing, UpgradeQueued, and keeps Ready as it was', () => {
    const ready = computeStatus(
      undefined,
      1,
      { kind: 'Applied', workloads: [ingesters(3)], rollout: { kind: 'Idle' }, version: '1.0.0' },
      t0,
    );
    const queued = computeStatus(ready, 1, { kind: 'Deferred', message: 'waiting for ns/a' }, t1);
    expect(cond(queued, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'UpgradeQueued',
      message: 'waiting for ns/a',
    });
    expect(cond(queued, 'Ready')).toEqual(cond(ready, 'Ready'));
  });
});
