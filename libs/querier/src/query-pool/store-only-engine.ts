import { RecordedDeletions } from '@logsvc/compactor';
import { Overrides } from '@logsvc/config';
import { LocalIngesterClient } from '@logsvc/ingester';
import type { RunQueryResult } from '@logsvc/logql';
import { QueryExecutor } from '../query-executor';
import { QuerySources } from '../query-sources';
import { ReadWindow, type ReadWindowSettings } from '../read-window';
import type { StoreReader } from '../store-reader';
import type { PoolQuery } from './pool-query';

const STORE_ONLY: ReadWindowSettings = {
  query_ingesters_within: 0,
  query_store_only: true,
  query_ingester_only: false,
};

/**
 * What a query worker runs a PoolQuery with: the querier's own executor and sources over the
 * store alone (the pool only gets queries the ingesters have nothing for), without a chunk
 * scan pool (the worker is one already), under the limits and delete requests the query
 * carries, at the main thread's `now`.
 */
export class StoreOnlyEngine {
  /** No ingester attached: the store-only window never asks it. */
  private readonly ingesters = new LocalIngesterClient();

  constructor(private readonly store: StoreReader) {}

  run(query: PoolQuery, signal: AbortSignal): Promise<RunQueryResult> {
    const now = (): bigint => query.nowNs;
    const deletions = query.deletions.size === 0 ? null : new RecordedDeletions(query.deletions);
    const sources = new QuerySources(
      this.store,
      this.ingesters,
      new ReadWindow(STORE_ONLY, now),
      null,
      deletions,
    );
    const first = query.limits.values().next();
    if (first.done) throw new Error('a pool query carries the limits of its tenants');
    const overrides = Overrides.fixed(query.limits, first.value);
    const executor = new QueryExecutor(sources, overrides, now);
    const { nowNs: _now, limits: _limits, deletions: _deletions, ...request } = query;
    return executor.run({ ...request, clientSignal: signal });
  }
}
