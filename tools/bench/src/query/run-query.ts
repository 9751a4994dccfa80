import type { QuerySpec } from './queries';

/** One timed request and what the server says it scanned. */
export interface QueryRun {
  readonly wallMs: number;
  readonly bytesProcessed: number;
  readonly linesProcessed: number;
  /** Log queries: entries returned; metric queries: series returned. */
  readonly results: number;
  /** Server CPU (all threads) during the request, when /proc is readable. */
  readonly cpuSeconds?: number | undefined;
}

interface QueryResponse {
  status: string;
  data: {
    resultType: string;
    result: Array<{ values?: unknown[] }>;
    stats: { summary: { totalBytesProcessed: number; totalLinesProcessed: number } };
  };
}

/** GET /loki/api/v1/query_range for `spec`; throws unless the answer is a success. */
export async function runQuery(
  target: { readonly url: string; readonly tenant: string },
  spec: QuerySpec,
): Promise<QueryRun> {
  const params = new URLSearchParams({
    query: spec.query,
    start: spec.startNs.toString(),
    end: spec.endNs.toString(),
    direction: 'backward',
  });
  if (spec.limit !== undefined) params.set('limit', String(spec.limit));
  if (spec.stepSeconds !== undefined) params.set('step', `${spec.stepSeconds}s`);
  const started = performance.now();
  const res = await fetch(`${target.url}/loki/api/v1/query_range?${params}`, {
    headers: { 'x-scope-orgid': target.tenant },
  });
  const text = await res.text();
  const wallMs = performance.now() - started;
  if (res.status !== 200)
    throw new Error(`${spec.name}: HTTP ${res.status} ${text.trim().slice(0, 500)}`);
  const body = JSON.parse(text) as QueryResponse;
  if (body.status !== 'success') throw new Error(`${spec.name}: ${text.slice(0, 500)}`);
  const summary = body.data.stats.summary;
  const results =
    body.data.resultType === 'streams'
      ? body.data.result.reduce((n, s) => n + (s.values?.length ?? 0), 0)
      : body.data.result.length;
  return {
    wallMs,
    bytesProcessed: summary.totalBytesProcessed,
    linesProcessed: summary.totalLinesProcessed,
    results,
  };
}
