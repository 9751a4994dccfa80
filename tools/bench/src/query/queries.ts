/** A string no generated line contains; the benchmark pushes a few lines with it. */
export const NEEDLE = 'needle-5f3c9e1d';

/** One timed `query_range` request. */
export interface QuerySpec {
  readonly name: string;
  readonly query: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
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
