import type { RingsService } from './rings.service';

/**
 * The gRPC addresses of the query schedulers in the scheduler ring that are ACTIVE with a live
 * heartbeat. Loki's frontends and queriers use the schedulers its ring picks (two); logsvc uses
 * every healthy one.
 */
export function schedulerAddresses(rings: RingsService): string[] {
  const watcher = rings.watcher('scheduler');
  if (watcher === undefined) return [];
  return watcher
    .ring()
    .healthyInstances('write')
    .map((i) => i.addr);
}
