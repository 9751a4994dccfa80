import { InvalidMatcherError } from '@logsvc/api';
import { ParseError } from '@logsvc/logql';
import { PlainHttpError } from '../../http/plain-error';
import { ParamError } from './params/query-params';
import { VolumeLimitError } from './read/volume';

/**
 * Loki answers bad query parameters, invalid LogQL and query limits with 400 and the reason in
 * plain text without a trailing newline; other errors pass on to the exception filter.
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
  return err;
}

/** Runs `fn`, turning client errors into 400 replies. */
export async function answering<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asHttpError(err);
  }
}
