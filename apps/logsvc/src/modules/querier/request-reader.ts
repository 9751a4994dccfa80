import type { FastifyRequest } from 'fastify';
import { paramValue, paramValues } from '../../http/params';
import { type ParamReader } from '@logsvc/query-codec';

/** Reads parameters of a GET or form POST request (form values first, as Go's `r.FormValue`). */
export function requestReader(request: FastifyRequest): ParamReader {
  return (name) => paramValue(request, name);
}

export { paramValues };
