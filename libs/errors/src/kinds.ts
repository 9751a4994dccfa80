/**
 * What went wrong, as the caller needs to know it: whose fault, and whether retrying helps.
 * Every error a library throws at a request carries one; the server maps it to an HTTP status
 * in one place (and, in a cluster, to a gRPC code in one interceptor).
 */
export const ERROR_KINDS = [
  /** The request itself is wrong: malformed body or parameter, invalid LogQL, a size limit. */
  'bad_request',
  /** A rate or count limit that a later retry may pass (ingestion rate, stream limits). */
  'limit',
  /** The request is well-formed but holds nothing that can be stored (Loki's 422). */
  'unprocessable',
  /** The request body is larger than allowed. */
  'too_large',
  /** The thing asked for does not exist, or the endpoint is off for this tenant. */
  'not_found',
  /** The component cannot serve now (starting, stopping, no ingester reachable); retry. */
  'unavailable',
  /** The work did not finish within its time budget. */
  'timeout',
  /** The client went away before the answer was ready. */
  'canceled',
  /** A fault of the server (disk, bug); nothing of the request was acknowledged. */
  'internal',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The HTTP status of each kind, as Loki answers them. */
export const HTTP_STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  bad_request: 400,
  limit: 429,
  unprocessable: 422,
  too_large: 413,
  not_found: 404,
  unavailable: 503,
  timeout: 504,
  canceled: 499,
  internal: 500,
};
