import type { MatrixItem, QueryResponse, StreamItem } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getJson } from '../api/http';
import { useQueryRoute } from '../api/query-route';
import { queryProblem } from '../api/queries';
import { useFeatures } from '../api/features';
import { useTenant } from '../api/tenant';
import { ErrorMessage } from '../components/ErrorMessage';
import { tenantListProblem } from '../lib/tenant-list';
import { fromLocalInput, toLocalInput } from '../lib/time';
import { navigate, useLocation, useTitle } from '../router';
import { LiveTail } from './LiveTail';
import { MetricChart } from '../charts/MetricChart';
import { bucketEnds } from '../charts/histogram-data';
import { VolumeHistogram } from '../charts/VolumeHistogram';

const RANGES = [
  ['5m', 5 * 60_000],
  ['1h', 3_600_000],
  ['6h', 6 * 3_600_000],
  ['24h', 24 * 3_600_000],
  ['7d', 7 * 24 * 3_600_000],
] as const;

/** About this many bars in the histogram. */
const BARS = 60;

interface Search {
  query: string;
  startMs: number;
  endMs: number;
}

const QUERY_RANGE_PATH = '/loki/api/v1/query_range';

function Results({
  tenant,
  search,
  onZoom,
  queryRangePath,
}: {
  tenant: string;
  search: Search;
  onZoom: (startMs: number, endMs: number) => void;
  /** Where to ask: this process's query_range, or another instance's through the proxy. */
  queryRangePath: string;
}) {
  const step = Math.max(1, Math.ceil((search.endMs - search.startMs) / 1000 / BARS));
  // The buckets end every step back from the end of the range, so each is whole and inside it.
  const buckets = bucketEnds(search.startMs / 1000, search.endMs / 1000, step);
  const range = { start: String(search.startMs * 1e6), end: String(search.endMs * 1e6) };
  const logs = useQuery({
    queryKey: ['explore', tenant, search, queryRangePath],
    queryFn: () =>
      getJson<QueryResponse>(queryRangePath, {
        tenant,
        params: { query: search.query, ...range, limit: '100', direction: 'backward' },
        // Structured metadata comes as its own category.
        headers: { 'X-Loki-Response-Encoding-Flags': 'categorize-labels' },
      }),
  });
  const isLogs = logs.data?.data.resultType === 'streams';
  // Only a log query has lines to count, by level; a metric query shows its own result.
  const volume = useQuery({
    queryKey: ['explore-volume', tenant, search, queryRangePath],
    enabled: isLogs,
    queryFn: () =>
      getJson<QueryResponse>(queryRangePath, {
        tenant,
        params: {
          query: `sum by (detected_level) (count_over_time(${search.query} [${step}s]))`,
          start: String(Math.round(buckets[0]! * 1e9)),
          end: String(Math.round(buckets[buckets.length - 1]! * 1e9)),
          step: `${step}s`,
        },
      }),
  });
  return (
    <>
      <ErrorMessage error={volume.error} prefix="Volume" />
      {volume.data && (
        <VolumeHistogram
          series={volume.data.data.result as MatrixItem[]}
          startMs={search.startMs}
          endMs={search.endMs}
          stepSeconds={step}
          onZoom={onZoom}
        />
      )}
      <ErrorMessage error={logs.error} />
      {logs.isPending && <p>Running…</p>}
      {logs.data && !isLogs && <MetricResult response={logs.data} />}
      {logs.data && isLogs && <LogLines streams={logs.data.data.result as StreamItem[]} />}
    </>
  );
}

function MetricResult({ response }: { response: QueryResponse }) {
  const { resultType, result } = response.data;
  if (resultType === 'matrix') return <MetricChart series={result as MatrixItem[]} />;
  return <pre className="code-block">{JSON.stringify(result, null, 2)}</pre>;
}

function LogLines({ streams }: { streams: StreamItem[] }) {
  const rows = streams
    .flatMap((s) => s.values.map((v) => ({ stream: s.stream, value: v })))
    .sort((a, b) => (BigInt(b.value[0]) > BigInt(a.value[0]) ? 1 : -1));
  if (rows.length === 0) return <p>No lines in this range.</p>;
  return (
    <div className="table-wrap">
      <table className="logs">
        <caption className="sr-only">Log lines, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Line</th>
            <th scope="col">Labels and structured metadata</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ stream, value }, i) => {
            const meta = value[2]?.structuredMetadata ?? {};
            return (
              <tr key={i}>
                <td className="small nowrap">
                  {new Date(Number(BigInt(value[0]) / 1_000_000n)).toLocaleString()}
                </td>
                <td className="code">{value[1]}</td>
                <td className="small">
                  {Object.entries(stream).map(([k, v]) => (
                    <span key={k} className="label">
                      {k}={v}
                    </span>
                  ))}
                  {Object.entries(meta).map(([k, v]) => (
                    <span key={k} className="label meta" title="structured metadata">
                      {k}={v}
                    </span>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** LogQL with validation, a time range, the volume histogram, results, and live tail. */
export function ExplorePage() {
  useTitle('Explore');
  const { tenant: picked } = useTenant();
  // With querier.multi_tenant_queries_enabled a query may read several tenants (`a|b`).
  const features = useFeatures().data;
  const multiTenant = features?.multi_tenant_queries === true;
  // A process without a querier or query frontend asks one through the proxy (api/query-route).
  const { noQueries, via, cannotRun, pending, pathOf } = useQueryRoute();
  const queryRangePath = pathOf(QUERY_RANGE_PATH);
  const [tenants, setTenants] = useState('');
  const tenantsProblem = multiTenant ? tenantListProblem(tenants) : undefined;
  const tenant = multiTenant && tenants.trim() !== '' && !tenantsProblem ? tenants.trim() : picked;
  const { search: params } = useLocation();
  const [query, setQuery] = useState(params.get('query') ?? '{app=~".+"}');
  const [problem, setProblem] = useState<string>();
  const now = Date.now();
  const [start, setStart] = useState(toLocalInput(now - 3_600_000));
  const [end, setEnd] = useState(toLocalInput(now + 60_000));
  const [search, setSearch] = useState<Search>();
  const [tailing, setTailing] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(() => {
      queryProblem(query, abort.signal).then(setProblem, () => {});
    }, 300);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query]);
  const runOver = (startMs: number, endMs: number) => {
    setTailing(false);
    setSearch({ query, startMs, endMs });
    navigate(`/explore?query=${encodeURIComponent(query)}`, true);
  };
  const run = () => runOver(fromLocalInput(start), fromLocalInput(end));
  const zoom = (startMs: number, endMs: number) => {
    setStart(toLocalInput(startMs));
    setEnd(toLocalInput(endMs));
    runOver(startMs, endMs);
  };
  return (
    <section>
      <h1>Explore logs of {tenant}</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!cannotRun) run();
        }}
      >
        <p>
          <label>
            LogQL{' '}
            <input
              className="wide"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby="query-problem"
            />
          </label>
        </p>
        <p id="query-problem" className="error" aria-live="polite">
          {problem ?? ''}
        </p>
        {multiTenant && (
          <p>
            <label>
              Tenants (a|b, empty for {picked}){' '}
              <input
                value={tenants}
                onChange={(e) => setTenants(e.target.value)}
                aria-invalid={tenantsProblem ? true : undefined}
                aria-describedby="tenants-problem"
                list="known-tenants"
              />
            </label>{' '}
            <span id="tenants-problem" className="error" aria-live="polite">
              {tenantsProblem ?? ''}
            </span>
          </p>
        )}
        <p className="row">
          {RANGES.map(([label, ms]) => (
            <button
              key={label}
              type="button"
              onClick={() => {
                const t = Date.now();
                setStart(toLocalInput(t - ms));
                setEnd(toLocalInput(t + 60_000));
              }}
            >
              Last {label}
            </button>
          ))}
          <label>
            From{' '}
            <input type="datetime-local" value={start} onChange={(e) => setStart(e.target.value)} />
          </label>
          <label>
            To <input type="datetime-local" value={end} onChange={(e) => setEnd(e.target.value)} />
          </label>
          <button type="submit" disabled={!!problem || !!tenantsProblem || cannotRun}>
            Run query
          </button>
          <button
            type="button"
            disabled={!!problem || tenant.includes('|') || noQueries}
            onClick={() => setTailing(!tailing)}
            aria-pressed={tailing}
          >
            {tailing ? 'Stop live tail' : 'Live tail'}
          </button>
        </p>
      </form>
      {noQueries && via && (
        <p role="note">
          This process runs no querier or query frontend: queries run on {via.id} (its{' '}
          {via.targets.includes('query-frontend') ? 'query frontend' : 'querier'}) through this
          process. Live tail needs a process that runs one.
        </p>
      )}
      {cannotRun && !pending && (
        <p role="note">
          This process runs no querier or query frontend, and no live instance reports one, so it
          answers no query (the check of the query above works).
        </p>
      )}
      {tailing ? (
        <LiveTail tenant={tenant} query={query} />
      ) : (
        search && (
          <Results tenant={tenant} search={search} onZoom={zoom} queryRangePath={queryRangePath} />
        )
      )}
    </section>
  );
}
