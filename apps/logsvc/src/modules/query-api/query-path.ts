import type { DeleteRequestsStore } from '@logsvc/compactor';
import type { Config, Overrides } from '@logsvc/config';
import {
  createFrontendQueryPath,
  type JobQueue,
  querierQueryPath,
  type QueryPath,
} from '@logsvc/frontend';
import type { Querier, QueryWorkerPool } from '@logsvc/querier';
import type { Component } from '../../targets';
import { sharesRing } from '../../cluster-mode';

export type { QueryPath } from '@logsvc/frontend';

/** Injection token of the `QueryPath` the query endpoints answer through. */
export const QUERY_PATH = Symbol('logsvc.queryPath');

/**
 * Where queries go, by what the process runs: through the query frontend when it runs here
 * (`createFrontendQueryPath`: remote queriers through the scheduler's queue with a shared ring,
 * else local workers on this process's querier), else this process's querier answers whole
 * queries, as a Loki querier asked directly does.
 */
export function createQueryPath(
  config: Config,
  components: readonly Component[],
  overrides: Overrides,
  querier: Querier | null,
  pool: QueryWorkerPool | null,
  jobs: JobQueue | null,
  deleteRequests: DeleteRequestsStore,
): QueryPath {
  if (!components.includes('query-frontend')) return querierQueryPath(querier, pool);
  const range = config.query_range;
  const embedded = range.results_cache.cache.embedded_cache;
  return createFrontendQueryPath({
    overrides,
    querier,
    pool,
    jobs: sharesRing(config) ? jobs : null,
    sharding: range.parallelise_shardable_queries,
    alignQueriesWithStep: range.align_queries_with_step,
    ingesterWindow: {
      queryIngestersWithinMs: config.querier.query_ingesters_within,
      queryStoreOnly: config.querier.query_store_only,
    },
    cache: range.cache_results
      ? {
          maxSizeMb: embedded.max_size_mb,
          maxSizeItems: embedded.max_size_items,
          ttlMs: embedded.ttl,
        }
      : null,
    maxConcurrent: config.querier.max_concurrent,
    maxOutstandingPerTenant: config.query_scheduler.max_outstanding_requests_per_tenant,
    maxQueueHierarchyLevels: config.query_scheduler.max_queue_hierarchy_levels,
    deleteRequests,
  });
}
