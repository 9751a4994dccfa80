/** Loki's texts for a query that did not finish (`pkg/util/server/error.go`). */
const TIMEOUT_MESSAGE =
  'Request timed out, decrease the duration of the request or add more label matchers (prefer exact match over regex match) to reduce the amount of data processed.';
const CANCELED_MESSAGE = 'The request was cancelled by the client.';

/** A query stopped by `query_timeout` (504) or by the client going away (499). */
export class QueryAbortedError extends Error {
  readonly statusCode: number;

  constructor(readonly timedOut: boolean) {
    super(timedOut ? TIMEOUT_MESSAGE : CANCELED_MESSAGE);
    this.statusCode = timedOut ? 504 : 499;
  }
}
