import { describe, expect, it } from 'vitest';
import { alignToStep } from './step-align';

const S = 1_000_000_000n;
const MS = 1_000_000n;

describe('alignToStep', () => {
  it.each([
    // start down, end up, to multiples of the step from the epoch
    [7n * S, 125n * S, 60n * S, 0n, 180n * S, 60n * S],
    [60n * S, 180n * S, 60n * S, 60n * S, 180n * S, 60n * S],
    [
      1_700_000_007n * S,
      1_700_000_100n * S,
      7n * S,
      1_700_000_001n * S,
      1_700_000_106n * S,
      7n * S,
    ],
    // sub-step nanoseconds
    [10n * S + 1n, 20n * S - 1n, 5n * S, 10n * S, 20n * S, 5n * S],
    // an odd millisecond step
    [1_000n * MS, 2_000n * MS, 300n * MS, 900n * MS, 2_100n * MS, 300n * MS],
  ])('[%d, %d] step %d → [%d, %d] step %d', (start, end, step, wantStart, wantEnd, wantStep) => {
    expect(alignToStep(start, end, step)).toEqual({
      startNs: wantStart,
      endNs: wantEnd,
      stepNs: wantStep,
    });
  });

  it('uses the step in whole milliseconds, as Loki’s frontend passes it on', () => {
    expect(alignToStep(1_000n * MS, 2_000n * MS, 1_500_500_000n)).toEqual({
      startNs: 0n,
      endNs: 3_000n * MS,
      stepNs: 1_500n * MS,
    });
  });

  it('leaves a step under a millisecond as it is', () => {
    expect(alignToStep(7n, 100n, 500_000n)).toEqual({ startNs: 7n, endNs: 100n, stepNs: 500_000n });
  });

  it('rounds times before 1970 toward zero, as Go does', () => {
    expect(alignToStep(-7n * S, -1n * S, 5n * S)).toEqual({
      startNs: -5n * S,
      endNs: 5n * S,
      stepNs: 5n * S,
    });
  });
});
