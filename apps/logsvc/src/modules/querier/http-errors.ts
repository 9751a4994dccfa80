import { InvalidMatcherError } from '@logsvc/api';
import { MetricQueryError, ParseError, UnsupportedQueryError } from '@logsvc/logql';
import { PlainHttpError } from '../../http/plain-error';
import { ParamError } from './params/query-params';
import { QueryAbortedError } from './query/query-errors';
import { VolumeLimitError } from './read/volume';

/**
 * Loki answers bad query parameters, invalid LogQL, queries it cannot run and query limits with
 * 400, timeouts with 504 and cancelled requests with 499, the reason in plain text without a
 * trailing newline; other errors pass on to the exception filter.
 */
export function asHttpError(err: unknown): unknown {
  if (
    err instanceof ParamError ||
    err instanceof ParseError ||
    err instanceof InvalidMatcherError ||
    err instanceof VolumeLimitError
  ) {
    return new PlainHttpError(400, err.message);
  }
  if (
    err instanceof UnsupportedQueryError ||
    err instanceof MetricQueryError ||
    err instanceof QueryAbortedError
  ) {
    return new PlainHttpError(err.statusCode, err.message);
  }
  return err;
}

/** Runs `fn`, turning client errors into their replies. */
export async function answering<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asHttpError(err);
  }
}
