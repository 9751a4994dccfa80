/**
 * Count and byte sums of one series per *segment* of the time line, for range aggregations
 * without unwrap (count_over_time, rate, bytes_over_time, bytes_rate, absent_over_time).
 *
 * The window edges of all steps, `k*step - range` and `k*step`, cut the time line into
 * segments; every window is a run of whole segments. Keeping a count and a byte sum per
 * non-empty segment instead of every sample bounds memory by the number of steps rather than
 * the number of log lines, and the results stay exact (integer sums).
 */
import { doubled, SlidingWindow } from './sliding-window';
import type { Metric } from './types';

const INITIAL_CAPACITY = 8;

export class SegmentSeries extends SlidingWindow {
  /** Segment indexes in increasing order (after `finish`). */
  segments = new Float64Array(INITIAL_CAPACITY);
  counts = new Float64Array(INITIAL_CAPACITY);
  sums = new Float64Array(INITIAL_CAPACITY);
  private sorted = true;

  constructor(
    readonly metric: Metric,
    readonly error: string | undefined,
  ) {
    super();
  }

  protected get keys(): Float64Array {
    return this.segments;
  }

  add(segment: number, value: number): void {
    this.addMany(segment, 1, value);
  }

  /** Adds `count` samples whose values sum to `sum`, all in `segment`. */
  addMany(segment: number, count: number, sum: number): void {
    const n = this.length;
    if (n > 0) {
      const last = this.segments[n - 1];
      if (last === segment) {
        this.counts[n - 1] += count;
        this.sums[n - 1] += sum;
        return;
      }
      if (segment < last) this.sorted = false;
    }
    if (n === this.segments.length) this.grow();
    this.segments[n] = segment;
    this.counts[n] = count;
    this.sums[n] = sum;
    this.length = n + 1;
  }

  /** Restores segment order (and merges equal segments) after streams merged out of order. */
  finish(): void {
    if (this.sorted) return;
    const n = this.length;
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => this.segments[a] - this.segments[b],
    );
    const segments = new Float64Array(n);
    const counts = new Float64Array(n);
    const sums = new Float64Array(n);
    let m = 0;
    for (const i of order) {
      if (m > 0 && segments[m - 1] === this.segments[i]) {
        counts[m - 1] += this.counts[i];
        sums[m - 1] += this.sums[i];
        continue;
      }
      segments[m] = this.segments[i];
      counts[m] = this.counts[i];
      sums[m] = this.sums[i];
      m++;
    }
    this.segments = segments;
    this.counts = counts;
    this.sums = sums;
    this.length = m;
    this.sorted = true;
  }

  count(): number {
    let c = 0;
    for (let i = this.lo; i < this.hi; i++) c += this.counts[i];
    return c;
  }

  sum(): number {
    let s = 0;
    for (let i = this.lo; i < this.hi; i++) s += this.sums[i];
    return s;
  }

  private grow(): void {
    this.segments = doubled(this.segments);
    this.counts = doubled(this.counts);
    this.sums = doubled(this.sums);
  }
}

/** The sorted, distinct window edges of all steps, and each step's edges as segment indexes. */
export class SegmentGrid {
  readonly edges: Float64Array;
  /** Window k covers segments `(startIndex[k], endIndex[k]]`. */
  readonly startIndex: Int32Array;
  readonly endIndex: Int32Array;

  constructor(count: number, stepNs: number, rangeNs: number) {
    const all: number[] = [];
    for (let k = 0; k < count; k++) all.push(k * stepNs - rangeNs, k * stepNs);
    all.sort((a, b) => a - b);
    const edges: number[] = [];
    for (const e of all) if (edges.length === 0 || edges[edges.length - 1] !== e) edges.push(e);
    this.edges = Float64Array.from(edges);
    this.startIndex = new Int32Array(count);
    this.endIndex = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      this.startIndex[k] = this.indexOf(k * stepNs - rangeNs);
      this.endIndex[k] = this.indexOf(k * stepNs);
    }
  }

  /**
   * Per segment index (0 to `edges.length`), 1 when some window holds it: segment s is
   * `(edges[s - 1], edges[s]]`, and window k the segments `startIndex[k] + 1 ..= endIndex[k]`.
   */
  coveredSegments(): Uint8Array {
    const e = this.edges.length;
    const depth = new Int32Array(e + 2);
    for (let k = 0; k < this.startIndex.length; k++) {
      depth[this.startIndex[k] + 1]++;
      depth[this.endIndex[k] + 1]--;
    }
    const covered = new Uint8Array(e + 1);
    let d = 0;
    for (let s = 0; s <= e; s++) {
      d += depth[s];
      covered[s] = d > 0 ? 1 : 0;
    }
    return covered;
  }

  /** The segment of a time inside some window (the first edge at or after it). */
  segmentOf(u: number, hint: number): number {
    const e = this.edges;
    if (hint > 0 && hint < e.length && e[hint] >= u && e[hint - 1] < u) return hint;
    if (hint + 1 < e.length && e[hint + 1] >= u && e[hint] < u) return hint + 1;
    return this.indexOf(u);
  }

  /** The first edge index whose edge is >= x. */
  private indexOf(x: number): number {
    let lo = 0;
    let hi = this.edges.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.edges[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
