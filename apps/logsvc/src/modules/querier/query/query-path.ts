import type { Config, Overrides } from '@logsvc/config';
import {
  AnswerCache,
  type CacheStats,
  EmbeddedCache,
  type FrontendQueryRequest,
  LocalDownstream,
  matrixCodec,
  QueryFrontend,
  ResultsCacheStore,
} from '@logsvc/frontend';
import type { RunQueryResult } from '@logsvc/logql';
import type { Querier } from '@logsvc/querier';
import type { Component } from '../../../targets';
import { sharesRing } from '../../cluster/cluster-mode';

/** Below this, a shard costs more in sub-query overhead than it saves. */
const MIN_BYTES_PER_SHARD = 16e6;

/** Injection token of the `QueryPath` the query endpoints answer through. */
export const QUERY_PATH = Symbol('logsvc.queryPath');

/** Where `query` and `query_range` go: the query frontend, or the querier itself. */
export interface QueryPath {
  query(request: FrontendQueryRequest): Promise<RunQueryResult & { resultCache?: CacheStats }>;
  close(): Promise<void>;
}

/** `query_range.cache_results`: the embedded cache, sized by `results_cache.cache.embedded_cache`. */
function answerCache(config: Config): AnswerCache | null {
  const range = config.query_range;
  if (!range.cache_results) return null;
  const embedded = range.results_cache.cache.embedded_cache;
  const cache = new EmbeddedCache({
    maxSizeMb: embedded.max_size_mb,
    maxSizeItems: embedded.max_size_items,
    ttlMs: embedded.ttl,
  });
  return new AnswerCache(new ResultsCacheStore(cache, matrixCodec()));
}

/**
 * With the query frontend in this process and the ring in memory (the single binary), queries
 * go through the frontend (split, shard, cache) and its sub-queries through the scheduler's
 * fair queue to `querier.max_concurrent` local workers running them on this querier; without
 * it, straight to the querier, as a Loki querier answers when asked directly.
 */
export function createQueryPath(
  config: Config,
  components: readonly Component[],
  querier: Querier,
  overrides: Overrides,
): QueryPath {
  const withFrontend = (components as readonly string[]).includes('query-frontend');
  if (!withFrontend || sharesRing(config)) {
    return { query: (request) => querier.query(request), close: async () => {} };
  }
  const downstream = new LocalDownstream(
    (sub, signal) =>
      querier.query({
        ...sub,
        categorizeLabels: sub.categorizeLabels ?? false,
        clientSignal: signal,
      }),
    {
      workers: config.querier.max_concurrent,
      maxOutstandingPerTenant: config.query_scheduler.max_outstanding_requests_per_tenant,
      maxQueueHierarchyLevels: config.query_scheduler.max_queue_hierarchy_levels,
    },
  );
  const frontend = new QueryFrontend({
    downstream,
    overrides,
    now: () => BigInt(Date.now()) * 1_000_000n,
    sharding: config.query_range.parallelise_shardable_queries,
    indexBytes: async (tenants, selectors, fromNs, throughNs) => {
      let bytes = 0;
      for (const matchers of selectors) {
        bytes += (await querier.indexStats(tenants, matchers, fromNs, throughNs)).bytes;
      }
      return bytes;
    },
    cache: answerCache(config),
    parallelism: { workers: config.querier.max_concurrent, minBytesPerShard: MIN_BYTES_PER_SHARD },
  });
  return { query: (request) => frontend.query(request), close: () => downstream.close() };
}
