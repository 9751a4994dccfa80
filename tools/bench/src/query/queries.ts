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
  /** The nearest VictoriaLogs request, for --compare-victorialogs. */
  readonly logsql?: LogsqlSpec;
}

/**
 * A LogsQL request standing for a LogQL query: `query` at /select/logsql/query (log lines,
 * with the spec's limit and range), `stats_query` at the spec's end (instant), or
 * `stats_query_range` over its range and step. `check` says how its answer is compared with
 * logsvc's: `count` the number of lines (log queries) or series, `sum` the sum of every value
 * returned (counts of lines, whatever the grouping), `none` when the two answer different
 * questions (rates over VictoriaLogs' step buckets against LogQL's sliding windows).
 */
export interface LogsqlSpec {
  readonly endpoint: 'query' | 'stats_query' | 'stats_query_range';
  readonly query: string;
  readonly check: 'count' | 'sum' | 'none';
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
      logsql: { endpoint: 'query', query: `{env=~".+"} "${NEEDLE}"`, check: 'count' },
      ...range,
    },
    {
      name: 'json field filter',
      query: `{app=~"${JSON_APPS}"} | json | user_id="u-4242"`,
      limit: 100,
      logsql: {
        endpoint: 'query',
        query: `{app=~"${JSON_APPS}"} | unpack_json fields (user_id) | filter user_id:="u-4242"`,
        check: 'count',
      },
      ...range,
    },
    {
      name: 'sum by rate',
      query: 'sum by (app) (rate({env=~".+"}[1m]))',
      stepSeconds: 60,
      logsql: {
        endpoint: 'stats_query_range',
        query: '{env=~".+"} | stats by (app) rate()',
        check: 'none',
      },
      ...range,
    },
    {
      name: 'topk count_over_time',
      query: 'topk(5, sum by (pod) (count_over_time({env=~".+"}[1m])))',
      stepSeconds: 60,
      logsql: {
        endpoint: 'stats_query_range',
        query: '{env=~".+"} | stats by (pod) count()',
        check: 'none',
      },
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
      logsql: {
        endpoint: 'stats_query',
        query: `${ALL} _time:3h | unpack_logfmt fields (level) | stats by (level) count()`,
        check: 'sum',
      },
      ...instant,
    },
    {
      name: 'json latency_ms > 500',
      query: `sum by (level) (count_over_time(${ALL} | json | latency_ms > 500 [3h]))`,
      logsql: {
        endpoint: 'stats_query',
        query:
          `${ALL} _time:3h | unpack_json fields (level, latency_ms) ` +
          '| filter latency_ms:>500 | stats by (level) count()',
        check: 'sum',
      },
      ...instant,
    },
    {
      name: 'line filter |= count',
      query: `sum(count_over_time(${ALL} |= "upstream timeout" [3h]))`,
      logsql: {
        endpoint: 'stats_query',
        query: `${ALL} _time:3h "upstream timeout" | stats count()`,
        check: 'sum',
      },
      ...instant,
    },
    {
      name: 'regex filter |~ count',
      query: `sum(count_over_time(${ALL} |~ "timeout|declined" [3h]))`,
      logsql: {
        endpoint: 'stats_query',
        query: `${ALL} _time:3h ~"timeout|declined" | stats count()`,
        check: 'sum',
      },
      ...instant,
    },
    {
      name: 'topk sum by pod rate',
      query: `topk(5, sum by (pod) (rate(${ALL}[5m])))`,
      stepSeconds: 60,
      // VictoriaLogs has no sliding windows: rate() per pod over each 60 s step bucket, every
      // pod returned (the top 5 of 100 series is picked by the client).
      logsql: {
        endpoint: 'stats_query_range',
        query: `${ALL} | stats by (pod) rate()`,
        check: 'none',
      },
      startNs,
      endNs,
      scansAll: true,
    },
    {
      name: 'log lines, limit 1000',
      query: ALL,
      limit: 1000,
      logsql: { endpoint: 'query', query: ALL, check: 'count' },
      startNs,
      endNs,
    },
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
