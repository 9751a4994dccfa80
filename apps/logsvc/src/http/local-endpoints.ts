import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { DiscoveryService } from '@nestjs/core';
import { PLAIN_TEXT } from './exception-filter';

/** A request to one of this process's endpoints, made in-process (the admin UI's proxy). */
export interface LocalRequest {
  readonly method: string;
  /** The query string's parameters (the proxy carries no body). */
  readonly query: URLSearchParams;
  /** Lower-case names. */
  readonly headers: IncomingHttpHeaders;
  readonly signal: AbortSignal;
}

/** What the endpoint's route writes: status, content type, body. */
export interface LocalAnswer {
  readonly status: number;
  readonly contentType?: string;
  readonly body: string | Buffer;
}

/** One endpoint by method (`GET` also answers `HEAD`, with no body). */
export type LocalEndpoint = Partial<
  Record<'GET' | 'POST' | 'DELETE', (request: LocalRequest) => Promise<LocalAnswer> | LocalAnswer>
>;

/**
 * A controller whose endpoints the admin UI's instance proxy may call in-process: the same
 * functions its routes answer with, by path.
 */
export interface LocalEndpointSource {
  localEndpoints(): Readonly<Record<string, LocalEndpoint>>;
}

/** Marks a controller as a LocalEndpointSource (Nest's discoverable decorator). */
export const LocalEndpoints = DiscoveryService.createDecorator<void>();

const JSON_TYPE = 'application/json; charset=utf-8';

/** A 200 with a JSON body, as Nest writes a returned object. */
export function jsonAnswer(body: unknown, contentType = JSON_TYPE): LocalAnswer {
  return { status: 200, contentType, body: JSON.stringify(body) };
}

/** A 200 with a text body. */
export function textAnswer(body: string, contentType = PLAIN_TEXT): LocalAnswer {
  return { status: 200, contentType, body };
}

/** Writes an answer on a route's reply. */
export function sendAnswer(reply: FastifyReply, answer: LocalAnswer): FastifyReply {
  if (answer.contentType !== undefined) void reply.header('content-type', answer.contentType);
  return reply.code(answer.status).send(answer.body);
}

/** A GET endpoint at every spelling of its path. */
export function getAt(
  paths: readonly string[],
  answer: (request: LocalRequest) => Promise<LocalAnswer> | LocalAnswer,
): Record<string, LocalEndpoint> {
  return endpointAt(paths, { GET: answer });
}

/** An endpoint at every spelling of its path. */
export function endpointAt(
  paths: readonly string[],
  endpoint: LocalEndpoint,
): Record<string, LocalEndpoint> {
  return Object.fromEntries(paths.map((p) => [p, endpoint]));
}
