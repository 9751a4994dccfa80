import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Splits a long synchronous loop into slices of about `sliceMs` each, giving the event loop a
 * turn between them, so one large push cannot hold up `/ready` or other tenants' requests.
 */
export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = 5) {}

  /** True when the current slice has used its time (a clock read: ~50 ns). */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** Lets pending I/O and timers run, then starts a new slice. */
  async yield(): Promise<void> {
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
