import type { FastifyRequest } from 'fastify';
import type { FormBody } from './body-parsers';

function formBody(request: FastifyRequest): FormBody | undefined {
  const body = request.body;
  if (body && typeof body === 'object' && !Buffer.isBuffer(body)) return body as FormBody;
  return undefined;
}

/**
 * All values of a request parameter: form body values first, then URL query values, the order
 * of Go's `r.Form` (used by Loki for GET and form POST alike).
 */
export function paramValues(request: FastifyRequest, name: string): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
  };
  add(formBody(request)?.[name]);
  add((request.query as Record<string, unknown> | undefined)?.[name]);
  return out;
}

/** The first value of a request parameter, as Go's `r.FormValue`; undefined when absent. */
export function paramValue(request: FastifyRequest, name: string): string | undefined {
  return paramValues(request, name)[0];
}
