import type { ServiceState } from '@logsvc/api/browser';

/** The badge class of each service state. */
export const STATE_CLASS: Record<ServiceState, string> = {
  New: 'muted',
  Starting: 'warn',
  Running: 'ok',
  Stopping: 'warn',
  Terminated: 'muted',
  Failed: 'bad',
};
