import { LogsvcError } from '@logsvc/errors';

export { ParamError } from '@logsvc/query-codec';

/** Loki's texts for a query that did not finish (`pkg/util/server/error.go`). */
const TIMEOUT_MESSAGE =
  'Request timed out, decrease the duration of the request or add more label matchers (prefer exact match over regex match) to reduce the amount of data processed.';
const CANCELED_MESSAGE = 'The request was cancelled by the client.';

/** A query stopped by `query_timeout` (`timeout`, 504) or by the client going away (499). */
export class QueryAbortedError extends LogsvcError {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'timeout' : 'canceled', timedOut ? TIMEOUT_MESSAGE : CANCELED_MESSAGE);
  }
}

/** Volumes asked of a tenant without `volume_enabled`: the endpoint does not exist for it. */
export class VolumesDisabledError extends LogsvcError {
  constructor() {
    super('not_found', 'not found');
  }
}
