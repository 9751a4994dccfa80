import type { ReadApi, ReadRequest } from '@logsvc/querier';
import type { ReadJobKind } from '@logsvc/query-codec';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientSignal } from './client-signal';
import { paramValues, requestReader } from './request-reader';

/**
 * A read route's handling: the request's parameters to the ReadApi (which parses them with the
 * query codec), its answer written back. Errors are thrown to the exception filter.
 */
export async function readReply(
  api: ReadApi,
  kind: ReadJobKind,
  tenants: readonly string[],
  request: FastifyRequest,
  reply: FastifyReply,
  name = '',
): Promise<FastifyReply> {
  const read: ReadRequest = {
    kind,
    tenants,
    read: requestReader(request),
    values: (param) => paramValues(request, param),
    name,
    legacy: isLegacy(request),
    signal: clientSignal(reply),
  };
  const answer = await api.answer(read);
  return reply.header('content-type', answer.contentType).send(answer.body);
}

/** Loki's legacy paths (`/api/prom/label...`) answer `{"values":[...]}`. */
export function isLegacy(request: FastifyRequest): boolean {
  return request.url.startsWith('/api/prom/') || request.url.startsWith('/api/compat/');
}
