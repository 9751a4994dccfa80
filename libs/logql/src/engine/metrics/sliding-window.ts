/**
 * What sample and segment series share: keys in increasing order (sample times, segment
 * indexes) in a growable typed array, and the run of them inside the current step's window.
 */
export abstract class SlidingWindow {
  length = 0;
  /** Window bounds of the current step, `[lo, hi)` positions; only move forward. */
  lo = 0;
  hi = 0;

  /** The keys, sorted once `finish` ran. */
  protected abstract get keys(): Float64Array;

  /** Moves the window to keys in `(start, end]` and reports whether it holds any. */
  slide(start: number, end: number): boolean {
    const keys = this.keys;
    const n = this.length;
    let hi = this.hi;
    while (hi < n && keys[hi] <= end) hi++;
    let lo = this.lo;
    while (lo < hi && keys[lo] <= start) lo++;
    this.lo = lo;
    this.hi = hi;
    return hi > lo;
  }
}

/** A copy of `a` with twice its room. */
export function doubled(a: Float64Array): Float64Array<ArrayBuffer> {
  const next = new Float64Array(a.length * 2);
  next.set(a);
  return next;
}
