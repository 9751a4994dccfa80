import { LogsvcError } from '@logsvc/errors';

/**
 * A bad request parameter or a query over a tenant's query limits: Loki's 400 with this text.
 * (The parameter parsers here throw it, and so do the querier's and the frontend's checks.)
 */
export class ParamError extends LogsvcError {
  constructor(message: string) {
    super('bad_request', message);
  }
}
