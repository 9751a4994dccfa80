import { allApiPaths } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { READ_JOB_KINDS } from '@logsvc/query-codec';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { PlainHttpError } from './plain-error';

export const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** Writes an error reply the way Loki does: plain text, nosniff, one-line reason. */
export function sendPlainError(reply: FastifyReply, status: number, body: string): void {
  void reply
    .code(status)
    .header('content-type', PLAIN_TEXT)
    .header('x-content-type-options', 'nosniff')
    .send(body);
}

interface FastifyError {
  statusCode?: number;
  code?: string;
  message: string;
}

function isFastifyError(err: unknown): err is FastifyError {
  return (
    err instanceof Error &&
    typeof (err as FastifyError).code === 'string' &&
    (err as FastifyError).code!.startsWith('FST_')
  );
}

/**
 * The one error filter of the server. Typed errors keep their status and reason; anything
 * unexpected is logged and answered 500, never crashing the process.
 */
@Catch()
export class LokiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly bodyLimit: number,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    if (reply.sent) return;

    if (exception instanceof LogsvcError) {
      // The one place a library error's kind becomes an HTTP status.
      if (exception.httpStatus >= 500) {
        this.logger.warn(
          { err: exception, method: request.method, url: request.url },
          'request failed',
        );
      }
      sendPlainError(reply, exception.httpStatus, errorBody(request, exception.message));
      return;
    }
    if (exception instanceof PlainHttpError) {
      sendPlainError(reply, exception.getStatus(), exception.body);
      return;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      sendPlainError(reply, status, `${this.reasonFor(status, httpExceptionMessage(exception))}\n`);
      return;
    }
    if (isFastifyError(exception) && exception.statusCode && exception.statusCode < 500) {
      sendPlainError(
        reply,
        exception.statusCode,
        `${this.reasonFor(exception.statusCode, exception.message)}\n`,
      );
      return;
    }
    this.logger.error(
      { err: exception, method: request.method, url: request.url },
      'request failed',
    );
    sendPlainError(reply, 500, 'internal server error\n');
  }

  /** Nest turns Fastify's own errors (unrouted path, oversized body) into HttpExceptions too. */
  private reasonFor(status: number, message: string): string {
    // Nest says `Cannot GET /x` for an unrouted path; Go's mux says this.
    if (status === 404 && message.startsWith('Cannot ')) return '404 page not found';
    if (status === 413) return `request body too large: the limit is ${this.bodyLimit} bytes`;
    return message;
  }
}

/**
 * Loki writes query-path errors without a trailing newline (its query handlers write the text
 * as is) and every other error with one (Go's `http.Error`).
 */
function errorBody(request: FastifyRequest, message: string): string {
  return lokiErrorBody((request.routeOptions as { url?: string } | undefined)?.url ?? '', message);
}

/** A LogsvcError's text as a route at `path` writes it (see `errorBody`). */
export function lokiErrorBody(path: string, message: string): string {
  return QUERY_PATHS.has(path) ? message : `${message}\n`;
}

/** The query path's routes: queries, tails, and the read jobs' routes but patterns. */
const QUERY_PATHS = new Set<string>(
  [
    'query' as const,
    'query_range' as const,
    'tail' as const,
    ...READ_JOB_KINDS.filter((kind) => kind !== 'patterns'),
  ].flatMap((name) => allApiPaths(name)),
);

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}
