/**
 * One series' extracted samples, as two growable typed arrays (timestamps, values) rather
 * than an object per sample. Timestamps are nanoseconds relative to the query's first window
 * end, held in doubles: exact while the query spans less than 2^53 ns (about 104 days).
 */
import type { Metric } from './types';

const INITIAL_CAPACITY = 16;

export class SampleSeries {
  ts = new Float64Array(INITIAL_CAPACITY);
  values = new Float64Array(INITIAL_CAPACITY);
  length = 0;
  private sorted = true;
  /** Window bounds of the current step, `[lo, hi)`; only move forward. */
  lo = 0;
  hi = 0;

  constructor(
    readonly metric: Metric,
    /** `__error__` of the series when it must fail the query. */
    readonly error: string | undefined,
  ) {}

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

  /** Moves the window to `(end - range, end]` and reports whether it holds a sample. */
  slide(windowStart: number, windowEnd: number): boolean {
    const ts = this.ts;
    const n = this.length;
    let hi = this.hi;
    while (hi < n && ts[hi] <= windowEnd) hi++;
    let lo = this.lo;
    while (lo < hi && ts[lo] <= windowStart) lo++;
    this.lo = lo;
    this.hi = hi;
    return hi > lo;
  }

  private grow(): void {
    const cap = this.ts.length * 2;
    const ts = new Float64Array(cap);
    ts.set(this.ts);
    const values = new Float64Array(cap);
    values.set(this.values);
    this.ts = ts;
    this.values = values;
  }
}
