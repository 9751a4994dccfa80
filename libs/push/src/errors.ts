import { type ErrorKind, LogsvcError } from '@logsvc/errors';

export interface PushErrorOptions {
  /** Loki's discard reason when the error drops data, e.g. `rate_limited`. */
  readonly reason?: string;
  /** The tenant's block_ingestion_status_code, answered instead of the kind's status. */
  readonly status?: number;
  readonly cause?: unknown;
}

/**
 * A refused push, with Loki's one-line text: bad_request (400), too_large (413),
 * unprocessable (422), limit (429), unavailable (503) or internal (500, nothing stored).
 */
export class PushError extends LogsvcError {
  /** Loki's discard reason when the error drops data, e.g. `rate_limited`. */
  readonly reason: string | undefined;

  constructor(kind: ErrorKind, message: string, options: PushErrorOptions = {}) {
    super(kind, message, { status: options.status, cause: options.cause });
    this.reason = options.reason;
  }
}

export function badRequest(message: string, reason?: string): PushError {
  return new PushError('bad_request', message, { reason });
}

/** Loki's message for a push with no streams at all (HTTP 422). */
export const MISSING_STREAMS_MESSAGE = 'error at least one valid stream is required for ingestion';

/** Wraps anything thrown by a decoder in a 400, keeping PushErrors as they are. */
export function asPushError(err: unknown, prefix = ''): PushError {
  if (err instanceof PushError) return err;
  const text = err instanceof Error ? err.message : String(err);
  return badRequest(prefix + text);
}
