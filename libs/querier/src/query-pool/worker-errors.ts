// Errors cross the thread boundary as plain data and are rebuilt on the main thread with the
// same name, kind, text and HTTP status, so a sub-query answers as it would on the main thread.
import { type ErrorKind, HTTP_STATUS_OF_KIND, LogsvcError } from '@logsvc/errors';
import { ParamError, QueryAbortedError } from '../errors';

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  /** Set for LogsvcErrors. */
  readonly kind?: ErrorKind;
  /** A LogsvcError's status when it is not its kind's. */
  readonly status?: number;
}

export function serializeError(err: unknown): SerializedError {
  const e = err instanceof Error ? err : new Error(String(err));
  if (!(e instanceof LogsvcError)) return { name: e.name, message: e.message };
  const status = e.httpStatus === HTTP_STATUS_OF_KIND[e.kind] ? {} : { status: e.httpStatus };
  return { name: e.name, message: e.message, kind: e.kind, ...status };
}

export function rebuildError(e: SerializedError): Error {
  if (e.kind === undefined) {
    const err = new Error(e.message);
    err.name = e.name;
    return err;
  }
  // The querier's own classes, which callers may check for.
  if (e.name === 'QueryAbortedError') return new QueryAbortedError(e.kind === 'timeout');
  if (e.name === 'ParamError') return new ParamError(e.message);
  const err = new LogsvcError(
    e.kind,
    e.message,
    e.status === undefined ? {} : { status: e.status },
  );
  err.name = e.name;
  return err;
}

/** A query worker died with sub-queries in flight; they did not finish (retry them). */
export class QueryWorkerExitedError extends LogsvcError {
  constructor(why: string) {
    super('unavailable', `query worker thread failed (${why}); the sub-query did not finish`);
  }
}

/** The pool was closed (the querier is stopping). */
export class QueryPoolClosedError extends LogsvcError {
  constructor() {
    super('unavailable', 'query worker pool is closed');
  }
}
