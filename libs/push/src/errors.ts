/**
 * Typed push errors. The distributor controller turns `status` into the HTTP status and
 * `message` into the one-line plain-text body, the way Loki answers.
 */
export class PushError extends Error {
  constructor(
    /** HTTP status: 400, 413, 422, 429, or the tenant's block_ingestion_status_code. */
    readonly status: number,
    message: string,
    /** Loki's discard reason when the error drops data, e.g. `rate_limited`. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'PushError';
  }
}

export function badRequest(message: string, reason?: string): PushError {
  return new PushError(400, message, reason);
}

/** Loki's message for a push with no streams at all (HTTP 422). */
export const MISSING_STREAMS_MESSAGE = 'error at least one valid stream is required for ingestion';

/** Wraps anything thrown by a decoder in a 400, keeping PushErrors as they are. */
export function asPushError(err: unknown, prefix = ''): PushError {
  if (err instanceof PushError) return err;
  const text = err instanceof Error ? err.message : String(err);
  return badRequest(prefix + text);
}
