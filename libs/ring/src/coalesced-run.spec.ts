import { describe, expect, it } from 'vitest';
import { CoalescedRun } from './coalesced-run';

/** Resolves after `depth` nested microtasks. */
function microtasks(depth: number): Promise<void> {
  return new Promise((resolve) => {
    const step = (left: number): void => {
      if (left === 0) resolve();
      else queueMicrotask(() => step(left - 1));
    };
    step(depth);
  });
}

describe('CoalescedRun', () => {
  it('runs once more for requests made while it runs, however many', async () => {
    let runs = 0;
    let release!: () => void;
    const run = new CoalescedRun(async () => {
      runs++;
      if (runs === 1) await new Promise<void>((r) => (release = r));
    });
    const first = run.request();
    const second = run.request();
    const third = run.request();
    release();
    await Promise.all([first, second, third]);
    expect(runs).toBe(2);
    await run.request();
    expect(runs).toBe(3);
  });

  it('honours a request made in any microtask around the end of a pass', async () => {
    // A request that lands after the last "again?" check but before the run is marked idle
    // would be lost: it must start a pass of its own instead.
    for (let depth = 0; depth < 12; depth++) {
      let runs = 0;
      let late: Promise<void> | undefined;
      const run = new CoalescedRun(async () => {
        runs++;
        if (runs === 1)
          late = microtasks(depth).then(() => {
            return run.request();
          });
      });
      await run.request();
      await late;
      await run.idle();
      expect([depth, runs]).toEqual([depth, 2]);
    }
  });

  it('never runs two passes at once', async () => {
    let active = 0;
    let most = 0;
    const run = new CoalescedRun(async () => {
      active++;
      most = Math.max(most, active);
      await microtasks(3);
      active--;
    });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => microtasks(i).then(() => run.request())),
    );
    await run.idle();
    expect(most).toBe(1);
  });
});
