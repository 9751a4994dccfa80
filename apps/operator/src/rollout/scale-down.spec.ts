import { describe, expect, it } from 'vitest';
import type { ObservedPod } from './decide';
import { decideScaleDown } from './scale-down';

const pod = (name: string, over: Partial<ObservedPod> = {}): ObservedPod => ({
  name,
  set: name.replace(/-\d+$/, ''),
  revision: 'r1',
  ready: true,
  terminating: false,
  createdAt: 0,
  ...over,
});

describe('decideScaleDown', () => {
  it('does nothing when no set shrinks', () => {
    expect(decideScaleDown([{ name: 'ls-ingester', current: 3, desired: 3 }], [])).toEqual({
      kind: 'None',
    });
  });

  it('drains the highest ordinal and shrinks by one', () => {
    const pods = [0, 1, 2, 3, 4].map((i) => pod(`ls-ingester-${i}`));
    expect(decideScaleDown([{ name: 'ls-ingester', current: 5, desired: 3 }], pods)).toEqual({
      kind: 'Drain',
      replicas: { 'ls-ingester': 4 },
      pod: 'ls-ingester-4',
      reason:
        'scaling ls-ingester down to 3: draining ls-ingester-4 (prepare_shutdown, flush, leave the ring)',
    });
  });

  it('holds while a pod shuts down or one is not Ready', () => {
    const sets = [{ name: 'ls-ingester', current: 4, desired: 3 }];
    const stopping = [pod('ls-ingester-0'), pod('ls-ingester-4', { terminating: true })];
    expect(decideScaleDown(sets, stopping)).toMatchObject({
      kind: 'Wait',
      replicas: { 'ls-ingester': 4 },
      pod: 'ls-ingester-4',
    });
    const unready = [pod('ls-ingester-0', { ready: false }), pod('ls-ingester-1')];
    expect(decideScaleDown(sets, unready)).toMatchObject({
      kind: 'Wait',
      pod: 'ls-ingester-0',
      reason: 'scaling ingesters down: waiting for ls-ingester-0 to be Ready first',
    });
  });

  it('walks the shrinking sets one after the other, holding the rest', () => {
    const sets = [
      { name: 'ls-ingester-a', current: 2, desired: 1 },
      { name: 'ls-ingester-b', current: 2, desired: 1 },
    ];
    const pods = ['a-0', 'a-1', 'b-0', 'b-1'].map((n) => pod(`ls-ingester-${n}`));
    expect(decideScaleDown(sets, pods)).toMatchObject({
      kind: 'Drain',
      pod: 'ls-ingester-a-1',
      replicas: { 'ls-ingester-a': 1, 'ls-ingester-b': 2 },
    });
  });
});
