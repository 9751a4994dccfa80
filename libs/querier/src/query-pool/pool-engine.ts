import { RecordedDeletions } from '@logsvc/compactor';
import { Overrides } from '@logsvc/config';
import { type MemoryFetch, SnapshotIngesterClient } from '@logsvc/ingester';
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
 * What a query worker runs a PoolQuery with: the querier's own executor and sources, without
 * a chunk scan pool (the worker is one already), under the limits and delete requests the
 * query carries, at the main thread's `now`. A query that needs the ingesters reads them
 * through snapshots `fetch` gets from the main thread, within the querier's own read window,
 * so memory and store overlap and are deduplicated as on the main thread; else the store alone.
 */
export class PoolEngine {
  constructor(private readonly store: StoreReader) {}

  run(query: PoolQuery, signal: AbortSignal, fetch: MemoryFetch): Promise<RunQueryResult> {
    const now = (): bigint => query.nowNs;
    const deletions = query.deletions.size === 0 ? null : new RecordedDeletions(query.deletions);
    const sources = new QuerySources(
      this.store,
      new SnapshotIngesterClient(fetch),
      new ReadWindow(query.window ?? STORE_ONLY, now),
      null,
      deletions,
    );
    const first = query.limits.values().next();
    if (first.done) throw new Error('a pool query carries the limits of its tenants');
    const overrides = Overrides.fixed(query.limits, first.value);
    const executor = new QueryExecutor(sources, overrides, now);
    const {
      nowNs: _now,
      limits: _limits,
      deletions: _deletions,
      window: _window,
      ...request
    } = query;
    return executor.run({ ...request, clientSignal: signal });
  }
}
