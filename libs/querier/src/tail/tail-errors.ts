import { LogsvcError } from '@logsvc/errors';

/** Over `max_concurrent_tail_requests` (Loki's `checkTailRequestLimit`). */
export class TailLimitError extends LogsvcError {
  constructor(count: number, limit: number) {
    super(
      'bad_request',
      `max concurrent tail requests limit exceeded, count > limit (${count} > ${limit})`,
    );
  }
}

/** The tail ran for `querier.tail_max_duration`. */
export class TailMaxDurationError extends LogsvcError {
  constructor() {
    super('bad_request', 'reached tail max duration limit');
  }
}

/**
 * A metric query given to tail: Loki 3.4's querier parses the query as a log selector first and
 * closes with this text (checked against its binary with `npm run diff:loki`).
 */
export class TailMetricQueryError extends LogsvcError {
  constructor() {
    super('bad_request', 'only log selector is supported');
  }
}
