/** Errors of log queries that are the user's doing; the HTTP layer answers `statusCode`. */
export class UnsupportedQueryError extends Error {
  readonly statusCode: number = 400;

  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedQueryError';
  }
}

/** Loki's `logqlmodel.ErrUnsupportedLogQueryInstant` text. */
export const ERR_INSTANT_LOG_QUERY =
  'log queries are not supported as an instant query type, please change your query to a range query type';
