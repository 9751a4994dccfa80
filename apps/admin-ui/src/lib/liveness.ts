// Whether an instance of the overview is alive, and the state its services really are in.
import type { InstanceOverview, ServiceState, ServiceStatus } from '@logsvc/api/browser';

/** A report older than this means the process stopped reporting: it is taken for dead. */
export const SILENT_AFTER_MS = 30_000;

export type Liveness =
  /** Reports, and recently. */
  | 'live'
  /** Reported once, then stopped: killed or hung. */
  | 'dead'
  /** Known from the rings only (a process that never reported here). */
  | 'ring-only';

export function livenessOf(instance: InstanceOverview, now: number): Liveness {
  if (!instance.reported) return 'ring-only';
  if (instance.self) return 'live';
  return now - Date.parse(instance.updated_at) > SILENT_AFTER_MS ? 'dead' : 'live';
}

/**
 * The services as they are now: a dead process runs nothing, so what it last reported as
 * running (or starting, stopping) is Failed, and what it had stopped stays Terminated.
 */
export function servicesNow(instance: InstanceOverview, now: number): ServiceStatus[] {
  if (livenessOf(instance, now) !== 'dead') return instance.services;
  return instance.services.map((s) => ({
    name: s.name,
    state: (s.state === 'Terminated' || s.state === 'Failed' ? s.state : 'Failed') as ServiceState,
  }));
}

/** How long it has run, or undefined when it does not (dead, or unknown). */
export function uptimeMs(instance: InstanceOverview, now: number): number | undefined {
  if (livenessOf(instance, now) !== 'live' || !instance.started_at) return undefined;
  return now - Date.parse(instance.started_at);
}
