// The rings a process can take part in, by the name `resolveRingConfig` knows them.
import type { Component } from '../../targets';

export type RingName = 'ingester' | 'distributor' | 'index-gateway' | 'pattern-ingester';

/** The ring each component registers itself in (one instance entry per process and ring). */
export const RING_OF_COMPONENT: Partial<Record<Component, RingName>> = {
  ingester: 'ingester',
  distributor: 'distributor',
  'index-gateway': 'index-gateway',
  'pattern-ingester': 'pattern-ingester',
};

/**
 * Rings whose members a component reads (the distributor and querier reach ingesters, and
 * pattern ingesters when `pattern_ingester.enabled`).
 */
export const RINGS_READ_BY: Partial<Record<Component, readonly RingName[]>> = {
  distributor: ['ingester', 'distributor', 'pattern-ingester'],
  querier: ['ingester', 'index-gateway', 'pattern-ingester'],
};
