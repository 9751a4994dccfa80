import type { CacheStats } from '@logsvc/api';
import type { DeleteRequestsStore } from '@logsvc/compactor';
import type { Config, Overrides } from '@logsvc/config';
import { LogsvcError } from '@logsvc/errors';
import {
  AnswerCache,
  type Downstream,
  hashKey,
  type FrontendQueryRequest,
  type IndexBytes,
  type JobQueue,
  LocalDownstream,
  matrixCodec,
  NO_PARALLELISM_HINT,
  type Parallelism,
  QueryFrontend,
  RemoteDownstream,
  remoteIndexBytes,
  ResultsCacheStore,
} from '@logsvc/frontend';
import type { RunQueryResult } from '@logsvc/logql';
import { EmbeddedCache } from '@logsvc/storage';
import { type Querier, type QueryWorkerPool, runPooledQuery } from '@logsvc/querier';
import type { Component } from '../../targets';
import { sharesRing } from '../../cluster-mode';

/** Injection token of the `QueryPath` the query endpoints answer through. */
export const QUERY_PATH = Symbol('logsvc.queryPath');

/** Below this, a shard costs more in sub-query overhead than it saves. */
const MIN_BYTES_PER_SHARD = 16e6;

/** Where `query` and `query_range` go: the query frontend, or this process's querier. */
export interface QueryPath {
  query(request: FrontendQueryRequest): Promise<RunQueryResult & { resultCache?: CacheStats }>;
  /** Straight to this process's querier (a sub-query a querier worker runs). */
  direct(request: FrontendQueryRequest): Promise<RunQueryResult>;
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

/** Runs a whole query on this process's querier: in its query worker threads when the store
 * alone answers it, else on the event loop. */
function runOn(querier: Querier | null, pool: QueryWorkerPool | null) {
  return (request: FrontendQueryRequest): Promise<RunQueryResult> => {
    if (querier === null) {
      return Promise.reject(new LogsvcError('unavailable', 'no querier runs in this process'));
    }
    return runPooledQuery(querier, pool, request);
  };
}

/**
 * Where queries go, by what the process runs:
 * - the query frontend in a cluster: split, shard, cache, then sub-queries as HTTP jobs through
 *   the scheduler's queue (`JOB_QUEUE`) to querier processes;
 * - the query frontend in the single binary: the same, with the scheduler's fair queue in this
 *   process and `querier.max_concurrent` local workers running sub-queries on its querier (in
 *   its query worker threads when the store alone answers them, or for metric sub-queries
 *   over enough of the in-process ingester's data);
 * - a querier alone: the querier answers whole queries, as a Loki querier asked directly does.
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
  const direct = runOn(querier, pool);
  if (!components.includes('query-frontend')) {
    return { query: direct, direct, close: async () => {} };
  }
  let downstream: Downstream;
  let close = async (): Promise<void> => {};
  let indexBytes: IndexBytes | undefined = querier === null ? undefined : indexBytesOf(querier);
  let parallelism: Parallelism = NO_PARALLELISM_HINT;
  if (sharesRing(config) && jobs !== null) {
    downstream = new RemoteDownstream(jobs);
    indexBytes = remoteIndexBytes(jobs);
  } else {
    parallelism = { workers: config.querier.max_concurrent, minBytesPerShard: MIN_BYTES_PER_SHARD };
    const local = new LocalDownstream(
      (sub, signal) =>
        direct({ ...sub, categorizeLabels: sub.categorizeLabels ?? false, clientSignal: signal }),
      {
        workers: localWorkers(config, pool),
        maxOutstandingPerTenant: config.query_scheduler.max_outstanding_requests_per_tenant,
        maxQueueHierarchyLevels: config.query_scheduler.max_queue_hierarchy_levels,
      },
    );
    downstream = local;
    close = () => local.close();
  }
  const frontend = new QueryFrontend({
    downstream,
    overrides,
    now: () => BigInt(Date.now()) * 1_000_000n,
    sharding: config.query_range.parallelise_shardable_queries,
    alignQueriesWithStep: config.query_range.align_queries_with_step,
    ingesterWindow: {
      queryIngestersWithinMs: config.querier.query_ingesters_within,
      queryStoreOnly: config.querier.query_store_only,
    },
    ...(indexBytes === undefined ? {} : { indexBytes }),
    cache: answerCache(config),
    parallelism,
    // Sub-queries on this machine's threads: shards keep them busy, splits would only re-read.
    coalesceSplits: downstream instanceof LocalDownstream,
    cacheGeneration: cacheGenerationOf(deleteRequests, overrides),
  });
  return { query: (request) => frontend.query(request), direct, close };
}

/**
 * The single binary's local workers taking sub-queries from its fair queue:
 * `querier.max_concurrent`, and with query worker threads at least twice their slots, so
 * that each thread finds its shards' next sub-queries waiting in the pool's queue (a shard's
 * sub-queries run on one thread, where its splits share chunks and blocks: `pickAffineWorker`).
 */
function localWorkers(config: Config, pool: QueryWorkerPool | null): number {
  const configured = config.querier.max_concurrent;
  return pool === null ? configured : Math.max(configured, 2 * pool.slots);
}

/**
 * The results cache generation of some tenants: a hash of their delete requests, so that a
 * request made or cancelled retires every answer cached before (Loki's cache generation
 * numbers, which its compactor bumps for the same events).
 */
function cacheGenerationOf(store: DeleteRequestsStore, overrides: Overrides) {
  return async (tenants: readonly string[]): Promise<string> => {
    const ids: string[] = [];
    for (const tenant of [...tenants].sort()) {
      if (overrides.forTenant(tenant).deletion_mode === 'disabled') continue;
      for (const r of await store.list(tenant)) ids.push(`${tenant}/${r.requestId}`);
    }
    return ids.length === 0 ? '' : hashKey(ids.sort().join(','));
  };
}

/**
 * The bytes a query reads, to shard it: the store's index stats, plus, for metric queries, the
 * in-process ingester's data when query workers read it (else recent data would never be
 * sharded and would run in one worker). Log queries over memory run on the event loop, lazily:
 * shards would only make them read more.
 */
function indexBytesOf(querier: Querier): IndexBytes {
  return async (tenants, selectors, fromNs, throughNs, logQuery) => {
    let bytes = 0;
    for (const { matchers } of selectors) {
      bytes += (await querier.indexStats(tenants, matchers, fromNs, throughNs)).bytes;
      if (!logQuery) bytes += querier.poolMemoryBytes(tenants, matchers, fromNs, throughNs);
    }
    return bytes;
  };
}
