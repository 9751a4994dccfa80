import { LogsvcError } from '@logsvc/errors';

/** A delete API refusal with Loki's status and text (answered as `http.Error`). */
export class DeleteRequestError extends LogsvcError {
  constructor(status: 400 | 403 | 404, message: string) {
    super(status === 404 ? 'not_found' : 'bad_request', message, { status });
  }
}

/** Loki's texts (pkg/compactor/deletion). */
export const DELETE_TEXTS = {
  notAvailable: 'deletion is not available for this tenant',
  notFound: 'could not find delete request with given id',
  processed: 'deletion of request which is in process or already processed is not allowed',
  partial:
    'Unable to cancel partially completed delete request. To force, use the ?force query parameter',
} as const;
