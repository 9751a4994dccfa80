import type { Overrides } from '@logsvc/config';
import { type QueryJobAnswer, type ReadJob, errorAnswer, nowNs } from '@logsvc/query-codec';
import { mapConcurrent } from '@logsvc/storage';
import type { IncomingHttpHeaders } from 'node:http';
import type { JobQueue } from '../downstream';
import { frontendLimits } from '../middleware/limits';
import { actorPathHeader, parseActorPath } from '../queue/actor-path';
import { mergeMetadataAnswers, splitMetadataJob } from '../split/metadata-jobs';
import {
  type EndpointTenancy,
  type FailureListener,
  failureAnswer,
  headerText,
  tenantsOrRefusal,
} from './answers';
import type { ForwardedRoute } from './forwarded-routes';

/** Where a cluster's frontend sends the read endpoints a querier serves besides queries. */
export interface ReadForwarding {
  readonly queue: JobQueue;
  readonly overrides: Overrides;
  readonly tenancy: EndpointTenancy;
  readonly onFailure?: FailureListener;
}

/** A read request as it came: its route, method, URL, headers (lower-case) and raw body. */
export interface ReadCall {
  readonly route: ForwardedRoute;
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly signal: AbortSignal;
}

/**
 * A read request sent as typed jobs through the queue to querier workers: whole, or for
 * `split_metadata_queries_by_interval` (labels, values, series) one job per split, their
 * answers merged. The answer is the querier's (status, content type, body).
 */
export async function forwardRead(
  { queue, overrides }: Pick<ReadForwarding, 'queue' | 'overrides'>,
  job: ReadJob,
  actorPath: readonly string[],
  signal: AbortSignal,
  now: bigint,
): Promise<QueryJobAnswer> {
  const submit = (j: ReadJob) => queue.submit(job.tenants.join('|'), actorPath, j, signal);
  const limits = frontendLimits(overrides, job.tenants);
  const splits = splitMetadataJob(job, limits, now);
  if (splits === undefined) return submit(job);
  return mergeMetadataAnswers(job, await mapConcurrent(splits, limits.maxQueryParallelism, submit));
}

/**
 * A read endpoint of a cluster's frontend, from the request to the answer its HTTP route
 * writes: tenants as the querier's routes take them (patterns one, the others `a|b` when
 * allowed), a typed ReadJob (`forwardRead`), errors as plain text (with a newline for
 * patterns only, as Loki's query-path handlers write theirs without).
 */
export async function answerForwardedRead(
  reads: ReadForwarding,
  call: ReadCall,
): Promise<QueryJobAnswer> {
  const { route, name } = call.route;
  const newline = route === 'patterns' ? '\n' : '';
  try {
    const tenants = tenantsOrRefusal(call.headers, reads.tenancy, route !== 'patterns');
    if (!Array.isArray(tenants)) return tenants;
    const actorPath = parseActorPath(actorPathHeader((h) => headerText(call.headers, h)));
    const job: ReadJob = {
      kind: route,
      tenants,
      params: requestParams(
        call.method,
        call.url,
        headerText(call.headers, 'content-type'),
        call.body,
      ),
      name,
      legacy: isLegacyPath(call.url),
    };
    const answer = await forwardRead(reads, job, actorPath, call.signal, nowNs());
    return answer.status >= 400 ? errorAnswer(answer.status, answer.body.toString('utf8')) : answer;
  } catch (err) {
    return failureAnswer(
      err,
      call.url,
      newline,
      `internal server error${newline}`,
      reads.onFailure,
    );
  }
}

/** Loki's legacy paths (`/api/prom/label...`) answer `{"values":[...]}`. */
export function isLegacyPath(url: string): boolean {
  return url.startsWith('/api/prom/') || url.startsWith('/api/compat/');
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * A request's parameters in Go's `r.Form` order: a form body's values (POST with a form
 * content type), then the URL's.
 */
export function requestParams(
  method: string,
  url: string,
  contentType: string | undefined,
  body: Buffer,
): [string, string][] {
  const params: [string, string][] = [];
  const type = (contentType ?? '').toLowerCase().split(';')[0]?.trim();
  if (method === 'POST' && type === FORM_TYPE) {
    params.push(...new URLSearchParams(body.toString('utf8')));
  }
  const at = url.indexOf('?');
  if (at >= 0) params.push(...new URLSearchParams(url.slice(at + 1)));
  return params;
}
