/**
 * Time splitting of range queries, as Loki's query frontend does it with
 * `split_queries_by_interval` (pkg/querier/queryrange: splitters.go, split_by_interval.go,
 * pkg/util/time.go `ForInterval`). All times are Unix nanoseconds; steps are whole
 * milliseconds, as in Loki's `LokiRequest.Step`.
 *
 * `split_ingester_queries_by_interval` (off by default) cuts the part of the range inside
 * `query_ingesters_within` by its own interval (splitters.go `ingesterQueryBounds`).
 */

export const NS_PER_MS = 1_000_000n;
/** Loki 3.4's default `split_queries_by_interval`. */
export const DEFAULT_SPLIT_QUERIES_BY_INTERVAL_NS = 3_600_000_000_000n;
/** Loki's `util.SplitGap`: the gap between splits of queries whose end is inclusive. */
export const SPLIT_GAP_NS = NS_PER_MS;

export interface TimeRange {
  readonly startNs: bigint;
  readonly endNs: bigint;
}

export type Direction = 'forward' | 'backward';

/**
 * `split_ingester_queries_by_interval`: the part of a query's range from `windowStartNs` (now
 * minus `query_ingesters_within`) on is cut by `intervalNs` instead. Absent (or an interval of
 * 0, or `query_store_only`): one interval for the whole range.
 */
export interface IngesterSplit {
  readonly windowStartNs: bigint;
  readonly intervalNs: bigint;
}

/**
 * Loki's `ingesterQueryBounds`: the part of `[start, end]` inside the ingester window, or
 * undefined when the range ends before the window.
 */
function ingesterBounds(
  ingester: IngesterSplit | undefined,
  startNs: bigint,
  endNs: bigint,
): TimeRange | undefined {
  if (ingester === undefined || ingester.intervalNs <= 0n) return undefined;
  const windowStart = ingester.windowStartNs < startNs ? startNs : ingester.windowStartNs;
  if (endNs < windowStart) return undefined;
  return { startNs: windowStart, endNs };
}

/**
 * Loki's `util.ForInterval`: `[start, end]` cut at multiples of `interval` (counted from the
 * Unix epoch). The first split keeps the original start, the last the original end. With
 * `endTimeInclusive` (metadata queries) each split but the last ends `SPLIT_GAP_NS` before the
 * next one starts. A non-positive interval gives the whole range; an empty range
 * (`start >= end`) gives no split at all.
 */
export function forInterval(
  intervalNs: bigint,
  startNs: bigint,
  endNs: bigint,
  endTimeInclusive = false,
): TimeRange[] {
  if (intervalNs <= 0n) return [{ startNs, endNs }];
  const out: TimeRange[] = [];
  // Go's `%` and BigInt's both truncate toward zero.
  let first = true;
  for (let s = startNs - (startNs % intervalNs); s < endNs; s += intervalNs) {
    let e = s + intervalNs;
    if (e >= endNs) e = endNs;
    else if (endTimeInclusive) e -= SPLIT_GAP_NS;
    out.push({ startNs: first ? startNs : s, endNs: e });
    first = false;
  }
  return out;
}

/** The step in whole milliseconds (as nanoseconds), as Loki's millisecond `Step` holds it. */
function wholeMsStep(stepNs: bigint): bigint {
  const step = (stepNs / NS_PER_MS) * NS_PER_MS;
  if (step <= 0n)
    throw new RangeError(`a metric range query needs a step of at least 1ms, got ${stepNs}ns`);
  return step;
}

/**
 * Loki's `metricQuerySplitter.alignStartEnd` (the same rounding the querier applies before
 * evaluating): the start rounded down and the end rounded up to a multiple of the step.
 */
export function alignStartEndToStep(stepNs: bigint, startNs: bigint, endNs: bigint): TimeRange {
  const step = wholeMsStep(stepNs);
  const mod = endNs % step;
  return { startNs: startNs - (startNs % step), endNs: mod === 0n ? endNs : endNs + step - mod };
}

/**
 * Loki's `nextIntervalBoundary`: the last evaluation timestamp (`t` plus a whole number of
 * steps) strictly before the next multiple of `interval` after `t`.
 */
export function nextIntervalBoundary(tNs: bigint, stepNs: bigint, intervalNs: bigint): bigint {
  const startOfNextInterval = (tNs / intervalNs + 1n) * intervalNs;
  let target = startOfNextInterval - ((startOfNextInterval - tNs) % stepNs);
  if (target === startOfNextInterval) target -= stepNs;
  return target;
}

export interface MetricSplitRequest {
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly stepNs: bigint;
  /** `split_queries_by_interval` (smallest non-zero over the tenants); 0 disables splitting. */
  readonly intervalNs: bigint;
  /**
   * The largest range-vector duration in the query (`[5m]` and so on): Loki never splits by
   * less than it (`reduceSplitIntervalForRangeVector`). 0 or absent when unknown.
   */
  readonly maxRangeNs?: bigint;
  readonly ingester?: IngesterSplit;
}

/**
 * The sub-queries Loki's `metricQuerySplitter` sends for a metric range query, in time order.
 * Each sub-range `[startNs, endNs]` is step-aligned and inclusive at both ends; the sub-ranges'
 * evaluation timestamps (`start + k*step <= end`) are exactly those of the step-aligned
 * unsplit query, each once.
 *
 * One deviation, for that last property: when the step is at least the interval Loki splits
 * by the step with `ForInterval`, so consecutive sub-queries share their boundary timestamp
 * and Loki's matrix merge drops the repeated sample. Here every sub-query after the first
 * starts one step later instead (same number of sub-queries, same merged result).
 *
 * Where Loki produces no split at all (interval 0; a range that is empty once aligned) the
 * request goes downstream unsplit: one sub-query, the aligned range.
 */
export function splitMetricQuery(req: MetricSplitRequest): TimeRange[] {
  const step = wholeMsStep(req.stepNs);
  const aligned = alignStartEndToStep(step, req.startNs, req.endNs);
  if (req.intervalNs <= 0n) return [aligned];
  const interval =
    req.maxRangeNs !== undefined && req.maxRangeNs > req.intervalNs
      ? req.maxRangeNs
      : req.intervalNs;
  const { startNs: start, endNs: end } = aligned;
  if (start >= end) return [aligned];

  const out: TimeRange[] = [];
  if (step >= (interval / NS_PER_MS) * NS_PER_MS) {
    // Loki: ForInterval(step, start, end, false): [s, s+step], [s+step, s+2step], ...
    let k = 0n;
    for (const r of forInterval(step, start, end, false)) {
      out.push(k === 0n ? r : { startNs: r.endNs, endNs: r.endNs });
      k++;
    }
    return out;
  }

  // The ingester window's part first, by its own interval (not widened to the range).
  const recent = ingesterBounds(req.ingester, start, end);
  let restEnd = end;
  let recentSplits: TimeRange[] = [];
  if (recent !== undefined) {
    const window = alignStartEndToStep(step, recent.startNs, recent.endNs);
    recentSplits = buildMetricSplits(step, req.ingester!.intervalNs, window.startNs, window.endNs);
    // The rest ends on the step before the window's first evaluation.
    restEnd = alignStartEndToStep(step, window.startNs - 1n, window.endNs).startNs;
    if (start >= restEnd) return recentSplits;
  }
  return [...buildMetricSplits(step, interval, start, restEnd), ...recentSplits];
}

/** Loki's `buildMetricSplits`: `[start, end]` cut on the last step before each boundary. */
function buildMetricSplits(
  step: bigint,
  interval: bigint,
  start: bigint,
  end: bigint,
): TimeRange[] {
  const out: TimeRange[] = [];
  for (let s = start; s < end; s = nextIntervalBoundary(s, step, interval) + step) {
    let e = nextIntervalBoundary(s, step, interval);
    if (e + step >= end) e = end;
    out.push({ startNs: s, endNs: e });
  }
  return out;
}

export interface LogSplitRequest {
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** `split_queries_by_interval`; 0 disables splitting. */
  readonly intervalNs: bigint;
  readonly direction: Direction;
  readonly ingester?: IngesterSplit;
}

/**
 * The sub-queries Loki's default splitter sends for a log query: `[start, end)` cut at
 * multiples of the interval (end exclusive, so no gap), in the order Loki runs and merges
 * them: oldest first for `forward`, newest first for `backward`. Loki stops taking
 * sub-query results once the limit is reached: see {@link subQueriesWithinLimit}.
 * An empty range (`start >= end`) is passed downstream unsplit: one sub-query.
 */
export function splitLogQuery(req: LogSplitRequest): TimeRange[] {
  if (req.intervalNs <= 0n) return [{ startNs: req.startNs, endNs: req.endNs }];
  const recent = ingesterBounds(req.ingester, req.startNs, req.endNs);
  const out: TimeRange[] = [];
  if (recent === undefined) out.push(...forInterval(req.intervalNs, req.startNs, req.endNs));
  else {
    // The rest of the range, then the ingester window's part by its own interval.
    if (req.startNs < recent.startNs)
      out.push(...forInterval(req.intervalNs, req.startNs, recent.startNs));
    out.push(...forInterval(req.ingester!.intervalNs, recent.startNs, recent.endNs));
  }
  if (out.length === 0) return [{ startNs: req.startNs, endNs: req.endNs }];
  if (req.direction === 'backward') out.reverse();
  return out;
}

/**
 * How many sub-query responses Loki's `splitByInterval.Process` merges for a log query of
 * this `limit`, given the entry counts of the sub-queries' responses in order: it stops after
 * the response that brings the total to the limit. A limit of 0 is unlimited.
 *
 * This is also the query's `stats.summary.splits` (Loki's `Result.MergeSplit` counts one per
 * sub-query response merged); for a metric query it is the number of sub-queries.
 */
export function subQueriesWithinLimit(limit: number, entryCounts: readonly number[]): number {
  if (limit <= 0) return entryCounts.length;
  let remaining = limit;
  for (let i = 0; i < entryCounts.length; i++) {
    remaining -= entryCounts[i]!;
    if (remaining <= 0) return i + 1;
  }
  return entryCounts.length;
}

/** The evaluation timestamps of a metric range query (`start + k*step <= end`). */
export function evaluationTimestamps(range: TimeRange, stepNs: bigint): bigint[] {
  const out: bigint[] = [];
  for (let t = range.startNs; t <= range.endNs; t += stepNs) out.push(t);
  return out;
}
