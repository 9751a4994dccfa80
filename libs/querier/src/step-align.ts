/**
 * Where Loki's query path puts a range metric query's steps. Loki's query-frontend hands the
 * querier a step in whole milliseconds (`LokiRequest.Step`), and its split-by-interval
 * middleware (on with the default `split_queries_by_interval: 1h`, which logsvc does not let
 * change) rounds the start down and the end up to multiples of that step, counted from the
 * Unix epoch (`metricQuerySplitter.alignStartEnd`). So `start=10:00:07, step=60s` evaluates
 * at 10:00:00, 10:01:00, …, and an end between two steps gets one more point after it.
 */

const NS_PER_MS = 1_000_000n;

export interface StepAlignedRange {
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly stepNs: bigint;
}

/**
 * The range Loki evaluates for `[startNs, endNs]` at `stepNs`. A step under a millisecond,
 * which Loki's frontend cannot carry, is left as it is, with the range.
 */
export function alignToStep(startNs: bigint, endNs: bigint, stepNs: bigint): StepAlignedRange {
  const step = (stepNs / NS_PER_MS) * NS_PER_MS;
  if (step <= 0n) return { startNs, endNs, stepNs };
  // Go's `%` and BigInt's both truncate toward zero: times before 1970 round as in Loki.
  const mod = endNs % step;
  return {
    startNs: startNs - (startNs % step),
    endNs: mod === 0n ? endNs : endNs + step - mod,
    stepNs: step,
  };
}
