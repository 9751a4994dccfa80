/** A string no generated line contains; the benchmark pushes a few lines with it. */
export const NEEDLE = 'needle-5f3c9e1d';

/** One timed `query_range` request, or `query` when `instant`. */
export interface QuerySpec {
  readonly name: string;
  readonly query: string;
  readonly startNs: bigint;
  /** End of the range; the evaluation time of an instant query. */
  readonly endNs: bigint;
  /** An instant query (`GET /loki/api/v1/query` at endNs); the range is in the LogQL. */
  readonly instant?: boolean;
  /** The query reads every line pushed, so "MB/s of lines" counts the whole data set. */
  readonly scansAll?: boolean;
  /** Metric queries only. */
  readonly stepSeconds?: number;
  /** Log queries only. */
  readonly limit?: number;
}

/** Apps whose lines the generator writes as JSON (formats go round-robin over apps). */
const JSON_APPS = 'checkout|frontend|notifications';

/** The queries of issue 5's benchmark, each over the whole ingested range. */
export function benchQueries(startNs: bigint, endNs: bigint): QuerySpec[] {
  const range = { startNs, endNs };
  return [
    {
      name: 'line filter (rare needle)',
      query: `{env=~".+"} |= "${NEEDLE}"`,
      limit: 100,
      ...range,
    },
    {
      name: 'json field filter',
      query: `{app=~"${JSON_APPS}"} | json | user_id="u-4242"`,
      limit: 100,
      ...range,
    },
    {
      name: 'sum by rate',
      query: 'sum by (app) (rate({env=~".+"}[1m]))',
      stepSeconds: 60,
      ...range,
    },
    {
      name: 'topk count_over_time',
      query: 'topk(5, sum by (pod) (count_over_time({env=~".+"}[1m])))',
      stepSeconds: 60,
      ...range,
    },
  ];
}

/** Every stream of the mixed data set (they all have an env label). */
const ALL = '{env=~".+"}';

/**
 * The shapes of issue 13's table over the mixed data set: instant queries over [3h] (the data
 * covers the hour before the run), a topk of rates as a range query and a log query with a limit.
 */
export function mixedQueries(startNs: bigint, endNs: bigint): QuerySpec[] {
  const instant = { startNs, endNs, instant: true, scansAll: true };
  return [
    {
      name: 'logfmt grouped count',
      query: `sum by (level) (count_over_time(${ALL} | logfmt [3h]))`,
      ...instant,
    },
    {
      name: 'json latency_ms > 500',
      query: `sum by (level) (count_over_time(${ALL} | json | latency_ms > 500 [3h]))`,
      ...instant,
    },
    {
      name: 'line filter |= count',
      query: `sum(count_over_time(${ALL} |= "upstream timeout" [3h]))`,
      ...instant,
    },
    {
      name: 'regex filter |~ count',
      query: `sum(count_over_time(${ALL} |~ "timeout|declined" [3h]))`,
      ...instant,
    },
    {
      name: 'topk sum by pod rate',
      query: `topk(5, sum by (pod) (rate(${ALL}[5m])))`,
      stepSeconds: 60,
      startNs,
      endNs,
      scansAll: true,
    },
    { name: 'log lines, limit 1000', query: ALL, limit: 1000, startNs, endNs },
  ];
}

/**
 * The metric queries of the query frontend benchmark (issue 15), each a `query_range` over the
 * whole data set: split by time, and the `sum`s sharded by stream.
 */
export function frontendQueries(startNs: bigint, endNs: bigint): QuerySpec[] {
  const range = { startNs, endNs, stepSeconds: 60 };
  return [
    { name: 'sum by level rate', query: 'sum by (level) (rate({env=~".+"}[1m]))', ...range },
    {
      name: 'sum by level logfmt count',
      query: 'sum by (level) (count_over_time({env=~".+"} | logfmt [5m]))',
      ...range,
    },
    {
      name: 'topk count_over_time',
      query: 'topk(5, sum by (pod) (count_over_time({env=~".+"}[1m])))',
      ...range,
    },
  ];
}
