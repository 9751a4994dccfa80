// The rings a process can take part in, by the name `resolveRingConfig` knows them.
import type { Config } from '@logsvc/config';
import type { Component } from '../../targets';
import { sharesRing } from '../../cluster-mode';

export type RingName =
  | 'ingester'
  | 'distributor'
  | 'index-gateway'
  | 'pattern-ingester'
  | 'compactor'
  | 'ruler'
  | 'scheduler';

/** The ring each component registers itself in (one instance entry per process and ring). */
export const RING_OF_COMPONENT: Partial<Record<Component, RingName>> = {
  ingester: 'ingester',
  distributor: 'distributor',
  'index-gateway': 'index-gateway',
  'pattern-ingester': 'pattern-ingester',
  compactor: 'compactor',
  ruler: 'ruler',
};

/**
 * Rings whose members a component reads: the distributor reaches ingesters, counts
 * distributors and feeds pattern ingesters; the querier reaches ingesters and pattern
 * ingesters, and index gateways through their ring only in `index_gateway.mode: ring` with a
 * shared ring (else it has no use for that ring, and its `/indexgateway/ring` page answers 404,
 * as Loki registers that page only in ring mode). The ruler runs its own querier (Loki's
 * local evaluation mode): it reads the same rings except the pattern ring. The pattern ring is
 * dropped when pattern ingesters are off (see RingsService).
 */
export function ringsReadBy(component: Component, config: Config): readonly RingName[] {
  switch (component) {
    case 'distributor':
      return ['ingester', 'distributor', 'pattern-ingester'];
    case 'querier':
      return config.index_gateway.mode === 'ring' && sharesRing(config)
        ? ['ingester', 'index-gateway', 'pattern-ingester']
        : ['ingester', 'pattern-ingester'];
    case 'ruler':
      return config.index_gateway.mode === 'ring' && sharesRing(config)
        ? ['ingester', 'index-gateway']
        : ['ingester'];
    default:
      return [];
  }
}
