import type { CacheStats } from '@logsvc/api';
import type { RunQueryResult } from '@logsvc/logql';
import {
  JSON_CONTENT_TYPE,
  PARQUET_TYPE,
  ParamError,
  type ParamReader,
  type QueryJobAnswer,
  legacyQueryResponseJson,
  parseInstantQuery,
  parseRangeQuery,
  queryResponseJson,
  resultToParquet,
  wantsCategories,
} from '@logsvc/query-codec';
import type { IncomingHttpHeaders } from 'node:http';
import type { FrontendQueryRequest } from '../middleware/query-frontend';
import { actorPathHeader, parseActorPath } from '../queue/actor-path';

/** The query endpoints: `query` (instant), `query_range`, and the legacy `/api/prom/query`. */
export type QueryEndpoint = 'instant' | 'range' | 'legacy';

/** Runs a parsed query: the query frontend, or a querier alone. */
export type QueryRunner = (
  request: FrontendQueryRequest,
) => Promise<RunQueryResult & { resultCache?: CacheStats }>;

/** A request to a query endpoint, its tenants resolved. */
export interface QueryEndpointCall {
  readonly endpoint: QueryEndpoint;
  readonly tenants: string[];
  /** The request's parameters, as Go's `r.FormValue` reads them. */
  readonly read: ParamReader;
  /** The request's headers, lower-case names. */
  readonly headers: IncomingHttpHeaders;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
  readonly nowNs: bigint;
}

/** `-frontend.support-parquet-encoding`. */
export interface QueryEndpointOptions {
  readonly supportParquet: boolean;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The typed request of a query endpoint call, parsed with the codec (Loki's checks and texts). */
export function queryEndpointRequest(
  call: QueryEndpointCall,
  categorizeLabels: boolean,
): FrontendQueryRequest {
  const common = {
    tenants: call.tenants,
    categorizeLabels,
    clientSignal: call.signal,
    logQueriesOnly: call.endpoint === 'legacy',
    actorPath: parseActorPath(actorPathHeader((name) => header(call.headers, name))),
  };
  if (call.endpoint === 'instant') {
    const p = parseInstantQuery(call.read, call.nowNs);
    return {
      ...common,
      kind: 'instant',
      query: p.query,
      startNs: p.timeNs,
      endNs: p.timeNs,
      stepNs: 0n,
      intervalNs: 0n,
      limit: p.limit,
      direction: p.direction,
      ...(p.shard === undefined ? {} : { shard: p.shard }),
    };
  }
  const p = parseRangeQuery(call.read, call.nowNs);
  return { ...common, kind: 'range', ...p };
}

/**
 * A query endpoint from parameters to answer: parsed, run, and encoded as Loki writes it (JSON,
 * or Parquet when asked for and enabled). Throws the codec's `ParamError` and the run's
 * `LogsvcError`s; the caller writes them as the query path's errors (no trailing newline).
 */
export async function answerQueryEndpoint(
  run: QueryRunner,
  call: QueryEndpointCall,
  options: QueryEndpointOptions,
): Promise<QueryJobAnswer> {
  const legacy = call.endpoint === 'legacy';
  const parquet = !legacy && (header(call.headers, 'accept') ?? '').includes(PARQUET_TYPE);
  const categorize = !legacy && wantsCategories(call.headers);
  const request = queryEndpointRequest(call, categorize);
  if (parquet && !options.supportParquet) {
    throw new ParamError(
      'support for Parquet encoded responses is disabled. Enable with -frontend.support-parquet-encoding=true',
    );
  }
  const { result, stats, resultCache } = await run(request);
  if (parquet) {
    return { status: 200, contentType: PARQUET_TYPE, body: await resultToParquet(result) };
  }
  const body = legacy
    ? legacyQueryResponseJson(result, stats)
    : queryResponseJson(result, stats, categorize, resultCache);
  return { status: 200, contentType: JSON_CONTENT_TYPE, body: Buffer.from(body) };
}
