// Shapes of the status endpoints' JSON bodies.

/** `GET /logsvc/api/v1/status/buildinfo`. */
export interface BuildInfo {
  version: string;
  revision: string;
  branch: string;
  buildUser: string;
  buildDate: string;
  goVersion: string;
}

/** `GET /log_level` and a successful `POST /log_level`. */
export interface LogLevelResponse {
  status?: 'success' | 'failed';
  message: string;
}

/** Lifecycle states of a service, as `/services` prints them. */
export const SERVICE_STATES = [
  'New',
  'Starting',
  'Running',
  'Stopping',
  'Terminated',
  'Failed',
] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];
