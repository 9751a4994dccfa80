/**
 * One series' extracted samples, as two growable typed arrays (timestamps, values) rather
 * than an object per sample. Timestamps are nanoseconds relative to the query's first window
 * end, held in doubles: exact while the query spans less than 2^53 ns (about 104 days).
 */
import { doubled, SlidingWindow } from './sliding-window';
import type { Metric } from './types';

const INITIAL_CAPACITY = 16;

export class SampleSeries extends SlidingWindow {
  ts = new Float64Array(INITIAL_CAPACITY);
  values = new Float64Array(INITIAL_CAPACITY);
  private sorted = true;

  constructor(
    readonly metric: Metric,
    /** `__error__` of the series when it must fail the query. */
    readonly error: string | undefined,
  ) {
    super();
  }

  protected get keys(): Float64Array {
    return this.ts;
  }

  push(t: number, v: number): void {
    if (this.length === this.ts.length) this.grow();
    if (this.length > 0 && t < this.ts[this.length - 1]) this.sorted = false;
    this.ts[this.length] = t;
    this.values[this.length] = v;
    this.length++;
  }

  /** Sorts by time when streams merged into this series out of order (stable for ties). */
  finish(): void {
    if (this.sorted) return;
    const n = this.length;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const ts = this.ts;
    const sortedOrder = Array.from(order).sort((a, b) => ts[a] - ts[b] || a - b);
    const newTs = new Float64Array(n);
    const newValues = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      newTs[i] = ts[sortedOrder[i]];
      newValues[i] = this.values[sortedOrder[i]];
    }
    this.ts = newTs;
    this.values = newValues;
    this.sorted = true;
  }

  private grow(): void {
    this.ts = doubled(this.ts);
    this.values = doubled(this.values);
  }
}
