import type { Config, Overrides } from '@logsvc/config';
import type { IngesterClient } from '@logsvc/ingester';
import { type QuerierOptions, withIndex } from '@logsvc/querier';
import type { ChunkStore, IndexReader } from '@logsvc/storage';
import { nowNs } from '@logsvc/query-codec';

/**
 * What every Querier of the process reads and is bounded by (the querier component's and the
 * ruler's): the store with its index reader, the ingesters, the read window and the limits.
 */
export function querierOptions(
  config: Config,
  store: ChunkStore,
  ingesters: IngesterClient,
  overrides: Overrides,
  index: IndexReader,
): Omit<QuerierOptions, 'scanWorkers'> {
  return {
    store: withIndex(store, index),
    ingesters,
    window: config.querier,
    overrides,
    now: nowNs,
  };
}
