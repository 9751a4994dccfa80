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

/** One line of `/services`: a service and its state. */
export interface ServiceStatus {
  name: string;
  state: ServiceState;
}

/** The `/services` body: `<name> => <State>` per line, each line ending in a newline. */
export function formatServices(services: readonly ServiceStatus[]): string {
  return services.map(({ name, state }) => `${name} => ${state}\n`).join('');
}

/** Reads a `/services` body back; lines that are not `<name> => <State>` are skipped. */
export function parseServices(text: string): ServiceStatus[] {
  const out: ServiceStatus[] = [];
  for (const line of text.split('\n')) {
    const at = line.lastIndexOf(' => ');
    if (at <= 0) continue;
    const state = line.slice(at + 4);
    if ((SERVICE_STATES as readonly string[]).includes(state)) {
      out.push({ name: line.slice(0, at), state: state as ServiceState });
    }
  }
  return out;
}
