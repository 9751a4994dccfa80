import type { Overrides } from '@logsvc/config';
import { EmbeddedCache } from '@logsvc/storage';
import { LogsvcError } from '@logsvc/errors';
import type { RunQueryResult } from '@logsvc/logql';
import { type Querier, type QueryWorkerPool, runPooledQuery } from '@logsvc/querier';
import { hashKey } from '../cache/key';
import { ResultsCacheStore } from '../cache/results-cache';
import type { Downstream, JobQueue } from '../downstream';
import { RemoteDownstream, remoteIndexBytes } from '../remote/remote-downstream';
import { AnswerCache, matrixCodec } from './answer-cache';
import { LocalDownstream } from './local-downstream';
import type { QueryRunner } from '../api/query-endpoint';
import { type FrontendQueryRequest, type IndexBytes, QueryFrontend } from './query-frontend';
import { NO_PARALLELISM_HINT, type Parallelism } from './limits';

/** Below this, a shard costs more in sub-query overhead than it saves. */
const MIN_BYTES_PER_SHARD = 16e6;

/** `query_range.results_cache.cache.embedded_cache`. */
export interface EmbeddedCacheSize {
  readonly maxSizeMb: number;
  readonly maxSizeItems: number;
  readonly ttlMs: number;
}

/** A tenant's delete requests (the compactor's store), for the results cache generation. */
export interface DeleteRequestIds {
  list(tenant: string): Promise<readonly { readonly requestId: string }[]>;
}

/** What a process's query frontend is built from (the module maps its config to these). */
export interface FrontendFactoryOptions {
  readonly overrides: Overrides;
  /** This process's querier and its query worker pool, if it runs one. */
  readonly querier: Querier | null;
  readonly pool: QueryWorkerPool | null;
  /** The scheduler's queue in a cluster: sub-queries go to remote queriers through it. */
  readonly jobs: JobQueue | null;
  /** `query_range.parallelise_shardable_queries`. */
  readonly sharding: boolean;
  /** `query_range.align_queries_with_step`. */
  readonly alignQueriesWithStep: boolean;
  /** `querier.query_ingesters_within` and `querier.query_store_only`. */
  readonly ingesterWindow: {
    readonly queryIngestersWithinMs: number;
    readonly queryStoreOnly: boolean;
  };
  /** `query_range.cache_results` with its embedded cache's size; null: no results cache. */
  readonly cache: EmbeddedCacheSize | null;
  /** `querier.max_concurrent`: the single binary's local workers. */
  readonly maxConcurrent: number;
  /** `query_scheduler.max_outstanding_requests_per_tenant`, `max_queue_hierarchy_levels`. */
  readonly maxOutstandingPerTenant: number;
  readonly maxQueueHierarchyLevels: number;
  readonly deleteRequests: DeleteRequestIds;
  readonly now?: () => bigint;
}

/** Where `query` and `query_range` go: the query frontend, or this process's querier. */
export interface QueryPath {
  readonly query: QueryRunner;
  /** Straight to this process's querier (a sub-query a querier worker runs). */
  readonly direct: (request: FrontendQueryRequest) => Promise<RunQueryResult>;
  /** Lets queued sub-queries finish, then ends the local workers. */
  readonly close: () => Promise<void>;
}

/**
 * Runs a whole query on this process's querier: in its query worker threads when the store
 * alone answers it, else on the event loop.
 */
export function querierQueryPath(querier: Querier | null, pool: QueryWorkerPool | null): QueryPath {
  const direct = (request: FrontendQueryRequest): Promise<RunQueryResult> => {
    if (querier === null) {
      return Promise.reject(new LogsvcError('unavailable', 'no querier runs in this process'));
    }
    return runPooledQuery(querier, pool, request);
  };
  return { query: direct, direct, close: async () => {} };
}

/**
 * A process's query frontend:
 * - in a cluster (`jobs` set): split, shard, cache, then sub-queries as typed jobs through the
 *   scheduler's queue to querier processes, shards sized from their index stats;
 * - in the single binary: the same, with the scheduler's fair queue in this process and
 *   `maxConcurrent` local workers running sub-queries on its querier (in its query worker
 *   threads when the store alone answers them, or for metric sub-queries over enough of the
 *   in-process ingester's data), shards sized for those workers.
 */
export function createFrontendQueryPath(options: FrontendFactoryOptions): QueryPath {
  const { querier, pool, jobs } = options;
  const { direct } = querierQueryPath(querier, pool);
  let downstream: Downstream;
  let close = async (): Promise<void> => {};
  let indexBytes: IndexBytes | undefined = querier === null ? undefined : indexBytesOf(querier);
  let parallelism: Parallelism = NO_PARALLELISM_HINT;
  if (jobs !== null) {
    downstream = new RemoteDownstream(jobs);
    indexBytes = remoteIndexBytes(jobs);
  } else {
    // With query worker threads, shards past their number run one after another on the same
    // threads: they only add each sub-query's fixed cost (index, snapshot, cursors).
    const sideBySide =
      pool === null ? options.maxConcurrent : Math.min(options.maxConcurrent, pool.size);
    parallelism = { workers: sideBySide, minBytesPerShard: MIN_BYTES_PER_SHARD };
    const local = new LocalDownstream(
      (sub, signal) =>
        direct({ ...sub, categorizeLabels: sub.categorizeLabels ?? false, clientSignal: signal }),
      {
        workers: localWorkers(options.maxConcurrent, pool),
        maxOutstandingPerTenant: options.maxOutstandingPerTenant,
        maxQueueHierarchyLevels: options.maxQueueHierarchyLevels,
      },
    );
    downstream = local;
    close = () => local.close();
  }
  const frontend = new QueryFrontend({
    downstream,
    overrides: options.overrides,
    now: options.now ?? (() => BigInt(Date.now()) * 1_000_000n),
    sharding: options.sharding,
    alignQueriesWithStep: options.alignQueriesWithStep,
    ingesterWindow: options.ingesterWindow,
    ...(indexBytes === undefined ? {} : { indexBytes }),
    cache: answerCache(options.cache),
    parallelism,
    // Sub-queries on this machine's threads: shards keep them busy, splits would only re-read.
    coalesceSplits: downstream instanceof LocalDownstream,
    cacheGeneration: cacheGenerationOf(options.deleteRequests, options.overrides),
  });
  return { query: (request) => frontend.query(request), direct, close };
}

/** The embedded results cache of that size, or none. */
function answerCache(size: EmbeddedCacheSize | null): AnswerCache | null {
  if (size === null) return null;
  return new AnswerCache(new ResultsCacheStore(new EmbeddedCache(size), matrixCodec()));
}

/**
 * The single binary's local workers taking sub-queries from its fair queue:
 * `querier.max_concurrent`, and with query worker threads at least twice their slots, so
 * that each thread finds its shards' next sub-queries waiting in the pool's queue (a shard's
 * sub-queries run on one thread, where its splits share chunks and blocks: `pickAffineWorker`).
 */
function localWorkers(configured: number, pool: QueryWorkerPool | null): number {
  return pool === null ? configured : Math.max(configured, 2 * pool.slots);
}

/**
 * The results cache generation of some tenants: a hash of their delete requests, so that a
 * request made or cancelled retires every answer cached before (Loki's cache generation
 * numbers, which its compactor bumps for the same events).
 */
function cacheGenerationOf(store: DeleteRequestIds, overrides: Overrides) {
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
