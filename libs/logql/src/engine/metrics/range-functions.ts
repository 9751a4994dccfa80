/**
 * The functions of range aggregations (`pkg/logql/range_vector.go`), each over one series'
 * samples in a window `[lo, hi)` of its typed arrays. Timestamps are nanoseconds relative to
 * an origin shared with `windowEndNs`.
 */
import type { RangeAggregationOp } from '../../syntax/ast';

export interface WindowContext {
  /** The window length in nanoseconds. */
  readonly rangeNs: number;
  /** The (inclusive) end of the window, same origin as the timestamps. */
  readonly windowEndNs: number;
  /** φ of quantile_over_time. */
  readonly param: number;
}

export type RangeFunction = (
  values: Float64Array,
  ts: Float64Array,
  lo: number,
  hi: number,
  ctx: WindowContext,
) => number;

function sum(values: Float64Array, lo: number, hi: number): number {
  let s = 0;
  for (let i = lo; i < hi; i++) s += values[i];
  return s;
}

const countOverTime: RangeFunction = (_v, _t, lo, hi) => hi - lo;

const sumOverTime: RangeFunction = (v, _t, lo, hi) => sum(v, lo, hi);

const rateOfCount: RangeFunction = (_v, _t, lo, hi, ctx) => (hi - lo) / (ctx.rangeNs / 1e9);

const rateOfSum: RangeFunction = (v, _t, lo, hi, ctx) => sum(v, lo, hi) / (ctx.rangeNs / 1e9);

/** Incremental mean, keeping an infinite mean stable as Loki (and Prometheus) do. */
const avgOverTime: RangeFunction = (v, _t, lo, hi) => {
  let mean = 0;
  let count = 0;
  for (let i = lo; i < hi; i++) {
    const x = v[i];
    count++;
    if (mean === Infinity || mean === -Infinity) {
      if ((x === Infinity || x === -Infinity) && mean > 0 === x > 0) continue;
      if (Number.isFinite(x)) continue;
    }
    mean += x / count - mean / count;
  }
  return mean;
};

const maxOverTime: RangeFunction = (v, _t, lo, hi) => {
  let max = v[lo];
  for (let i = lo; i < hi; i++) if (v[i] > max || Number.isNaN(max)) max = v[i];
  return max;
};

const minOverTime: RangeFunction = (v, _t, lo, hi) => {
  let min = v[lo];
  for (let i = lo; i < hi; i++) if (v[i] < min || Number.isNaN(min)) min = v[i];
  return min;
};

/** Population variance with Welford's method. */
function variance(v: Float64Array, lo: number, hi: number): number {
  let aux = 0;
  let count = 0;
  let mean = 0;
  for (let i = lo; i < hi; i++) {
    count++;
    const delta = v[i] - mean;
    mean += delta / count;
    aux += delta * (v[i] - mean);
  }
  return aux / count;
}

const stdvarOverTime: RangeFunction = (v, _t, lo, hi) => variance(v, lo, hi);
const stddevOverTime: RangeFunction = (v, _t, lo, hi) => Math.sqrt(variance(v, lo, hi));

/** Prometheus' quantile with linear interpolation; NaN sorts first as in its heap order. */
export function quantile(q: number, values: number[]): number {
  if (values.length === 0) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  values.sort((a, b) =>
    Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : Number.isNaN(b) ? 1 : a - b,
  );
  const n = values.length;
  const rank = q * (n - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(n - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  return values[lower] * (1 - weight) + values[upper] * weight;
}

const quantileOverTime: RangeFunction = (v, _t, lo, hi, ctx) =>
  quantile(ctx.param, Array.from(v.subarray(lo, hi)));

const firstOverTime: RangeFunction = (v, _t, lo) => v[lo];
const lastOverTime: RangeFunction = (v, _t, _lo, hi) => v[hi - 1];

/**
 * Prometheus `extrapolatedRate(isCounter, isRate)` over the window `(end - range, end]`:
 * counter resets add back the value before the drop; the sampled interval is extrapolated to
 * the window edges, by at most half an average interval when the nearest sample is farther
 * than 1.1 average intervals from an edge, and never below the counter's zero point. Fewer
 * than 2 samples give 0. (Loki 3.4 mixes ns and ms here; this is the corrected behaviour.)
 */
const rateCounter: RangeFunction = (v, ts, lo, hi, ctx) => {
  const n = hi - lo;
  if (n < 2) return 0;
  const firstV = v[lo];
  let result = v[hi - 1] - firstV;
  let last = 0;
  for (let i = lo; i < hi; i++) {
    if (v[i] < last) result += last;
    last = v[i];
  }
  const rangeStart = ctx.windowEndNs - ctx.rangeNs;
  let toStart = (ts[lo] - rangeStart) / 1e9;
  let toEnd = (ctx.windowEndNs - ts[hi - 1]) / 1e9;
  const sampled = (ts[hi - 1] - ts[lo]) / 1e9;
  const avgInterval = sampled / (n - 1);
  const threshold = avgInterval * 1.1;
  if (toStart >= threshold) toStart = avgInterval / 2;
  if (result > 0 && firstV >= 0) {
    const toZero = sampled * (firstV / result);
    if (toZero < toStart) toStart = toZero;
  }
  if (toEnd >= threshold) toEnd = avgInterval / 2;
  result *= (sampled + toStart + toEnd) / sampled;
  return result / (ctx.rangeNs / 1e9);
};

const one: RangeFunction = () => 1;

/** The function computing `op` over a window; `unwrapped` tells rate which form it is. */
export function rangeFunction(op: RangeAggregationOp, unwrapped: boolean): RangeFunction {
  switch (op) {
    case 'count_over_time':
      return countOverTime;
    case 'rate':
      return unwrapped ? rateOfSum : rateOfCount;
    case 'rate_counter':
      return rateCounter;
    case 'bytes_over_time':
    case 'sum_over_time':
      return sumOverTime;
    case 'bytes_rate':
      return rateOfSum;
    case 'avg_over_time':
      return avgOverTime;
    case 'max_over_time':
      return maxOverTime;
    case 'min_over_time':
      return minOverTime;
    case 'stdvar_over_time':
      return stdvarOverTime;
    case 'stddev_over_time':
      return stddevOverTime;
    case 'quantile_over_time':
      return quantileOverTime;
    case 'first_over_time':
      return firstOverTime;
    case 'last_over_time':
      return lastOverTime;
    case 'absent_over_time':
      return one;
  }
}
