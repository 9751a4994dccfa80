import type { ShardRef } from '@logsvc/api';

/**
 * A LogQL query the frontend already checked against the tenant's limits, clamped and aligned
 * to the step: the querier runs it as it is, over the streams of `shard` when set.
 */
export interface SubQuery {
  readonly kind: 'instant' | 'range';
  readonly query: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly stepNs: bigint;
  readonly intervalNs: bigint;
  readonly limit: number;
  readonly direction: 'forward' | 'backward';
  readonly tenants: readonly string[];
  readonly shard?: ShardRef;
  /** Log queries: attach label categories to each entry (`categorize-labels`). */
  readonly categorizeLabels?: boolean;
}
