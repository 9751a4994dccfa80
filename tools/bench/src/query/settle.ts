import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchServer } from '../bench-server';
import { cpuSeconds } from '../proc-stat';

/** The window over which the servers' CPU is read, and the most they may use in it. */
const WINDOW_MS = 100;
const QUIET_CPU_SECONDS = 0.01;

/**
 * Waits until the servers together use at most 10 % of one core over 100 ms (or `maxMs` has
 * passed), so a timed run does not share the machine with background work the previous run
 * left behind in either server: Go's garbage collector after a Loki query, chunk compression,
 * a flush. Without /proc it returns at once.
 */
export async function settle(servers: readonly BenchServer[], maxMs = 3000): Promise<void> {
  const deadline = performance.now() + maxMs;
  const total = (): number | undefined => {
    let sum = 0;
    for (const s of servers) {
      const cpu = cpuSeconds(s.pid);
      if (cpu === undefined) return undefined;
      sum += cpu;
    }
    return sum;
  };
  let before = total();
  while (before !== undefined && performance.now() < deadline) {
    await sleep(WINDOW_MS);
    const after = total();
    if (after === undefined || after - before <= QUIET_CPU_SECONDS) return;
    before = after;
  }
}
