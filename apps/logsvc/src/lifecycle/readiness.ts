import { SERVICE_STATES } from '@logsvc/api';
import type { ServiceRegistry } from './service-registry';

export interface Readiness {
  ready: boolean;
  /** Body of `/ready`, Loki's wording. */
  message: string;
}

/** What `/ready` answers: ready only when every registered service is Running and every readiness check passes. */
export function readiness(registry: ServiceRegistry): Readiness {
  if (registry.isStopping) return { ready: false, message: 'Application is stopping\n' };
  const counts = new Map<string, number>();
  for (const { state } of registry.states()) {
    if (state !== 'Running') counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  if (counts.size === 0) {
    const unmet = registry.unmetReadiness();
    return unmet === null
      ? { ready: true, message: 'ready\n' }
      : { ready: false, message: `${unmet}\n` };
  }
  let message = 'Some services are not Running:\n';
  for (const state of SERVICE_STATES) {
    const n = counts.get(state);
    if (n) message += `${state}: ${n}\n`;
  }
  return { ready: false, message };
}
