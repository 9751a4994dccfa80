import type { BenchServer } from '../bench-server';
import { cpuSeconds } from '../proc-stat';
import { type FrontendCounters, frontendCounters } from './frontend-stats';
import type { QuerySpec } from './queries';

/** One timed request and what the server says it scanned. */
export interface QueryRun {
  readonly wallMs: number;
  readonly bytesProcessed: number;
  readonly linesProcessed: number;
  /** Log queries: entries returned; metric queries: series returned. */
  readonly results: number;
  /** Metric queries: the sum of every sample value returned (a cheap check that two servers
   * answered alike); log queries: 0. */
  readonly valueSum: number;
  /** Server CPU (all threads) during the request, when /proc is readable. */
  readonly cpuSeconds?: number | undefined;
  /** Splits, shards, sub-queries and results cache lookups, as `data.stats` reports them. */
  readonly frontend?: FrontendCounters;
}

interface QueryResponse {
  status: string;
  data: {
    resultType: string;
    result: Array<{ values?: unknown[][]; value?: unknown[] }>;
    stats: {
      summary: { totalBytesProcessed: number; totalLinesProcessed: number };
      cache?: unknown;
    };
  };
}

function sumOfValues(result: QueryResponse['data']['result'], type: string): number {
  let sum = 0;
  if (type === 'vector') for (const s of result) sum += Number(s.value?.[1] ?? 0);
  if (type === 'matrix')
    for (const s of result) for (const v of s.values ?? []) sum += Number(v[1] ?? 0);
  return sum;
}

/** GET /loki/api/v1/query_range (or /query) for `spec`; throws unless the answer is a success. */
export async function runQuery(
  target: { readonly url: string; readonly tenant: string },
  spec: QuerySpec,
): Promise<QueryRun> {
  const params = new URLSearchParams(
    spec.instant
      ? { query: spec.query, time: spec.endNs.toString() }
      : {
          query: spec.query,
          start: spec.startNs.toString(),
          end: spec.endNs.toString(),
          direction: 'backward',
        },
  );
  if (spec.limit !== undefined) params.set('limit', String(spec.limit));
  if (spec.stepSeconds !== undefined) params.set('step', `${spec.stepSeconds}s`);
  const path = spec.instant ? 'query' : 'query_range';
  const started = performance.now();
  const res = await fetch(`${target.url}/loki/api/v1/${path}?${params}`, {
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
    valueSum: sumOfValues(body.data.result, body.data.resultType),
    frontend: frontendCounters(body.data.stats),
  };
}

/** Seconds since the epoch, as VictoriaLogs reads `start`, `end` and `time`. */
function unixSeconds(ns: bigint): string {
  return (Number(ns / 1000n) / 1e6).toFixed(6);
}

/**
 * The spec's LogsQL request on VictoriaLogs (`spec.logsql`): log lines (JSON lines, counted),
 * or stats in Prometheus' query format. VictoriaLogs reports no bytes or lines scanned (0).
 */
export async function runLogsql(url: string, spec: QuerySpec): Promise<QueryRun> {
  const l = spec.logsql;
  if (l === undefined) throw new Error(`${spec.name}: no LogsQL equivalent`);
  const params = new URLSearchParams({ query: l.query });
  if (l.endpoint === 'stats_query') params.set('time', unixSeconds(spec.endNs));
  else {
    params.set('start', unixSeconds(spec.startNs));
    params.set('end', unixSeconds(spec.endNs));
  }
  if (l.endpoint === 'query' && spec.limit !== undefined) params.set('limit', String(spec.limit));
  if (l.endpoint === 'stats_query_range') params.set('step', `${spec.stepSeconds ?? 60}s`);
  const started = performance.now();
  const res = await fetch(`${url}/select/logsql/${l.endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
  const text = await res.text();
  const wallMs = performance.now() - started;
  if (res.status !== 200)
    throw new Error(`${spec.name} (LogsQL): HTTP ${res.status} ${text.trim().slice(0, 500)}`);
  if (l.endpoint === 'query') {
    const results = text.split('\n').filter((line) => line.trim() !== '').length;
    return { wallMs, bytesProcessed: 0, linesProcessed: 0, results, valueSum: 0 };
  }
  const body = JSON.parse(text) as QueryResponse;
  if (body.status !== 'success') throw new Error(`${spec.name} (LogsQL): ${text.slice(0, 500)}`);
  return {
    wallMs,
    bytesProcessed: 0,
    linesProcessed: 0,
    results: body.data.result.length,
    valueSum: sumOfValues(body.data.result, body.data.resultType),
  };
}

/** `runQuery` (or `runLogsql` with `logsql`) with the server's CPU time (all threads) during the request. */
export async function timedRun(
  server: BenchServer,
  tenant: string,
  spec: QuerySpec,
  logsql = false,
): Promise<QueryRun> {
  const cpuBefore = cpuSeconds(server.pid);
  const run = logsql
    ? await runLogsql(server.url, spec)
    : await runQuery({ url: server.url, tenant }, spec);
  const cpuAfter = cpuSeconds(server.pid);
  return {
    ...run,
    cpuSeconds:
      cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
  };
}
