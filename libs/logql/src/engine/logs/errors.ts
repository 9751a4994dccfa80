import { LogsvcError } from '@logsvc/errors';

/** A log query that cannot run as asked (an instant log query): `bad_request` (400). */
export class UnsupportedQueryError extends LogsvcError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'UnsupportedQueryError';
  }
}

/** Loki's `logqlmodel.ErrUnsupportedLogQueryInstant` text. */
export const ERR_INSTANT_LOG_QUERY =
  'log queries are not supported as an instant query type, please change your query to a range query type';
