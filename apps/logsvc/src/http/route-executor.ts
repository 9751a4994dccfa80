import { ORG_ID_HEADER } from '@logsvc/api';
import type { HttpHandler, HttpRequestMessage, HttpResponseMessage } from '@logsvc/rpc';
import type { FastifyInstance } from 'fastify';
import { jobHeaders } from './job-headers';

/**
 * Runs a job (an HTTP request carried whole) on this process's routes with `fastify.inject`,
 * no socket: `X-Scope-OrgID` is the tenant unless the request names one, `extraHeaders` are
 * added.
 */
export async function injectJob(
  fastify: FastifyInstance,
  tenant: string,
  job: HttpRequestMessage,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<HttpResponseMessage> {
  const headers = { ...jobHeaders(job.headers), ...extraHeaders };
  const orgId = ORG_ID_HEADER.toLowerCase();
  if (headers[orgId] === undefined) headers[orgId] = tenant;
  const res = await fastify.inject({
    method: job.method as 'GET' | 'POST',
    url: job.url,
    headers,
    ...(job.body.length > 0 ? { payload: job.body } : {}),
  });
  return { status: res.statusCode, headers: jobHeaders(res.headers), body: res.rawPayload };
}

/**
 * Runs a request carried over gRPC (`httpgrpc.HTTP/Handle`) on this process's routes as if it
 * had come over HTTP: a query frontend here splits and queues it as it would any client's.
 */
export function routeExecutor(fastify: FastifyInstance): HttpHandler {
  return (tenant, job) => injectJob(fastify, tenant, job);
}
