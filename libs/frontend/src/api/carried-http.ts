import { apiPaths, deprecatedApiPaths } from '@logsvc/api';
import {
  PLAIN_TEXT_TYPE,
  type QueryJobAnswer,
  errorAnswer,
  jobParamReader,
  nowNs,
} from '@logsvc/query-codec';
import type { IncomingHttpHeaders } from 'node:http';
import {
  type EndpointTenancy,
  type FailureListener,
  failureAnswer,
  tenantsOrRefusal,
} from './answers';
import { type ForwardedRoute, matchForwardedRoute } from './forwarded-routes';
import {
  type QueryEndpoint,
  type QueryEndpointOptions,
  type QueryRunner,
  answerQueryEndpoint,
} from './query-endpoint';
import { type ReadForwarding, answerForwardedRead, requestParams } from './read-forwarding';

/** An HTTP request carried whole (Loki's `httpgrpc.HTTPRequest`). */
export interface CarriedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Its answer (`httpgrpc.HTTPResponse`). */
export interface CarriedAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

export interface CarriedHttpOptions extends QueryEndpointOptions {
  /** Runs `query` and `query_range` (the query frontend). */
  readonly query: QueryRunner;
  readonly tenancy: EndpointTenancy;
  /** The read endpoints, sent on to queriers; absent: not served. */
  readonly reads?: ReadForwarding;
  readonly onFailure?: FailureListener;
  /** Each request answered: its method, route template ('' when none matched), status. */
  readonly observe?: (method: string, route: string, status: number, seconds: number) => void;
}

type Target =
  | { readonly kind: 'query'; readonly endpoint: QueryEndpoint; readonly path: string }
  | { readonly kind: 'read'; readonly route: ForwardedRoute; readonly path: string };

const QUERY_ENDPOINTS: readonly { endpoint: QueryEndpoint; paths: string[] }[] = [
  { endpoint: 'instant', paths: apiPaths('query') },
  { endpoint: 'range', paths: apiPaths('query_range') },
  { endpoint: 'legacy', paths: deprecatedApiPaths('query') },
];

function targetOf(method: string, path: string, reads: boolean): Target | undefined {
  if (method !== 'GET' && method !== 'POST') return undefined;
  for (const { endpoint, paths } of QUERY_ENDPOINTS) {
    if (paths.includes(path)) return { kind: 'query', endpoint, path };
  }
  const route = reads ? matchForwardedRoute(path) : undefined;
  return route === undefined ? undefined : { kind: 'read', route, path: route.path };
}

/** The carried headers with lower-case names, the call's tenant standing in for a missing org ID. */
function requestHeaders(tenant: string, headers: Readonly<Record<string, string>>) {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  if (out['x-scope-orgid'] === undefined) out['x-scope-orgid'] = tenant;
  return out;
}

/**
 * A query frontend's `httpgrpc.HTTP/Handle`: the carried request answered by the frontend's
 * own entry points, as its HTTP routes answer it (status, body and content type): `query`,
 * `query_range` and the legacy `/api/prom/query` through `query`, the read endpoints through
 * `reads`, anything else `404 page not found` (as Loki's router answers an unknown path).
 */
export function carriedHttpHandler(
  options: CarriedHttpOptions,
): (tenant: string, request: CarriedRequest, signal: AbortSignal) => Promise<CarriedAnswer> {
  return async (tenant, request, signal) => {
    const started = performance.now();
    const path = request.url.split('?')[0] ?? '';
    const target = targetOf(request.method, path, options.reads !== undefined);
    const headers = requestHeaders(tenant, request.headers);
    const answer =
      target === undefined
        ? errorAnswer(404, '404 page not found\n')
        : await answerTarget(options, target, { ...request, headers }, signal);
    const seconds = (performance.now() - started) / 1000;
    options.observe?.(request.method, target?.path ?? '', answer.status, seconds);
    const out: Record<string, string> = { 'content-type': answer.contentType };
    if (answer.contentType === PLAIN_TEXT_TYPE) out['x-content-type-options'] = 'nosniff';
    return { status: answer.status, headers: out, body: answer.body };
  };
}

async function answerTarget(
  options: CarriedHttpOptions,
  target: Target,
  request: Omit<CarriedRequest, 'headers'> & { readonly headers: IncomingHttpHeaders },
  signal: AbortSignal,
): Promise<QueryJobAnswer> {
  const { headers } = request;
  if (target.kind === 'read') {
    return answerForwardedRead(options.reads!, { ...request, route: target.route, signal });
  }
  const tenants = tenantsOrRefusal(headers, options.tenancy, true);
  if (!Array.isArray(tenants)) return tenants;
  const contentType = headers['content-type'];
  const params = requestParams(request.method, request.url, contentType, request.body);
  const read = jobParamReader(params);
  const call = { endpoint: target.endpoint, tenants, read, headers, signal, nowNs: nowNs() };
  try {
    return await answerQueryEndpoint(options.query, call, options);
  } catch (err) {
    // Query-path errors carry no trailing newline (Loki writes their text as is).
    return failureAnswer(err, request.url, '', 'internal server error\n', options.onFailure);
  }
}
