import { LogsvcError } from '@logsvc/errors';
import { PushError } from '@logsvc/push';

/**
 * The answer to a push the ingester has taken, as Loki gives it: an ingester-side refusal
 * (per-stream rate, order, stream limit) outranks the distributor's validation error, which is
 * answered only when the ingester took everything. Of several ingester refusals the last one
 * is answered, as Loki's ingester does, so a push of 100,000 refused streams gets a one-line
 * answer rather than one line per stream. Undefined when nothing was refused.
 */
export function pushRefusal(
  ingesterErrors: readonly LogsvcError[],
  validationError: PushError | undefined,
): LogsvcError | undefined {
  if (ingesterErrors.length > 0) return ingesterErrors[ingesterErrors.length - 1];
  return validationError;
}

/**
 * A failed push to the ingester, as the client sees it: `unavailable` and the like keep their
 * text; anything else means nothing of the push was acknowledged.
 */
export function ingesterFailure(err: unknown): LogsvcError {
  if (err instanceof LogsvcError && err.kind !== 'internal') return err;
  const text = err instanceof Error ? err.message : String(err);
  return new PushError('internal', `push not stored: ${text}`, { cause: err });
}
