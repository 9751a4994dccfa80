import { randomUUID } from 'node:crypto';

/**
 * Marks a request a querier worker runs on its own routes (`app.inject`), so that a query
 * frontend in the same process does not queue it again. The value is a secret of this process:
 * a client cannot set it to skip the frontend.
 */
export const INTERNAL_JOB_HEADER = 'x-logsvc-internal-job';
export const INTERNAL_JOB_TOKEN = randomUUID();
