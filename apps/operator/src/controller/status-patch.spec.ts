import { describe, expect, it } from 'vitest';
import { statusPatch } from './reconciler';

describe('statusPatch', () => {
  it('nulls keys that vanished at any depth, so the merge leaves nothing stale', () => {
    const before = {
      version: '1',
      rollout: { phase: 'Waiting', pod: 'x-0', message: 'waiting' },
      components: { ruler: { replicas: 1 }, querier: { replicas: 2 } },
      conditions: [{ type: 'Ready' }],
    };
    const after = {
      rollout: { phase: 'Idle' },
      components: { querier: { replicas: 3 } },
      conditions: [],
    };
    expect(statusPatch(before, after)).toEqual({
      version: null,
      rollout: { phase: 'Idle', pod: null, message: null },
      components: { ruler: null, querier: { replicas: 3 } },
      conditions: [],
    });
  });
});
