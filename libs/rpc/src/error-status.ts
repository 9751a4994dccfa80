import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { ERROR_KINDS, HTTP_STATUS_OF_KIND, LogsvcError, type ErrorKind } from '@logsvc/errors';

/** Trailers that carry a LogsvcError's kind and HTTP status, so the client rebuilds it. */
const KIND_KEY = 'logsvc-error-kind';
const HTTP_STATUS_KEY = 'logsvc-http-status';

const CODE_OF_KIND: Readonly<Record<ErrorKind, status>> = {
  bad_request: status.INVALID_ARGUMENT,
  unprocessable: status.INVALID_ARGUMENT,
  limit: status.RESOURCE_EXHAUSTED,
  too_large: status.RESOURCE_EXHAUSTED,
  not_found: status.NOT_FOUND,
  unavailable: status.UNAVAILABLE,
  timeout: status.DEADLINE_EXCEEDED,
  canceled: status.CANCELLED,
  internal: status.INTERNAL,
};

/** The gRPC status a handler answers a thrown value with (anything not a LogsvcError: INTERNAL). */
export function errorToStatus(err: unknown): Partial<StatusObject> & { code: status } {
  const e =
    err instanceof LogsvcError
      ? err
      : new LogsvcError('internal', err instanceof Error ? err.message : String(err));
  const metadata = new Metadata();
  metadata.set(KIND_KEY, e.kind);
  if (e.httpStatus !== HTTP_STATUS_OF_KIND[e.kind])
    metadata.set(HTTP_STATUS_KEY, `${e.httpStatus}`);
  return { code: CODE_OF_KIND[e.kind], details: e.message, metadata };
}

/**
 * The LogsvcError a failed call stands for: the server's own (same kind, text and HTTP status)
 * when it sent one, else one for what gRPC reported. An ingester that cannot be reached, or does
 * not answer before the deadline, is `unavailable`, as no ingester being there is in-process.
 */
export function errorFromStatus(err: ServiceError, address: string): LogsvcError {
  const kind = err.metadata?.get(KIND_KEY)[0];
  if (typeof kind === 'string' && (ERROR_KINDS as readonly string[]).includes(kind)) {
    const httpStatus = Number(err.metadata.get(HTTP_STATUS_KEY)[0]);
    return new LogsvcError(
      kind as ErrorKind,
      err.details,
      Number.isInteger(httpStatus) ? { status: httpStatus } : {},
    );
  }
  const text = `rpc to ${address} failed: ${err.details || err.message}`;
  switch (err.code) {
    // Clients never report a call they cancelled themselves: a cancellation comes from the
    // server's side (a server stopping cancels its calls in flight).
    case status.UNAVAILABLE:
    case status.DEADLINE_EXCEEDED:
    case status.CANCELLED:
      return new LogsvcError('unavailable', text, { cause: err });
    case status.INVALID_ARGUMENT:
      return new LogsvcError('bad_request', text, { cause: err });
    default:
      return new LogsvcError('internal', text, { cause: err });
  }
}
