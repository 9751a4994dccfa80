// What crosses the thread boundary between the QueryWorkerPool and its query workers: plain
// data only (structured clone), bigints included.
import type { DeleteRequestRecord } from '@logsvc/compactor';
import type { TenantLimits } from '@logsvc/config';
import type { RunQueryResult } from '@logsvc/logql';
import type { ChunkStoreSettings } from '@logsvc/storage';
import type { QueryRequest } from '../query-executor';
import type { SerializedError } from './worker-errors';

/**
 * A query a worker runs over the store alone (see `Querier.poolQuery`), with what the worker
 * cannot know by itself: the main thread's clock, the tenants' limits and delete requests.
 */
export interface PoolQuery extends Omit<QueryRequest, 'clientSignal'> {
  /** The main thread's now (ns), for `max_query_lookback`. */
  readonly nowNs: bigint;
  /** The limits of each of `tenants`, as the main thread's Overrides resolved them. */
  readonly limits: ReadonlyMap<string, TenantLimits>;
  /** The delete requests each of `tenants` honours (see `LineDeletions.records`). */
  readonly deletions: ReadonlyMap<string, readonly DeleteRequestRecord[]>;
}

/** What a query worker is started with (`workerData`). */
export interface QueryWorkerData {
  readonly store: ChunkStoreSettings;
  /** `querier.block_cache_mb` (see `ChunkDecoder`); default its default. */
  readonly blockCacheMb?: number;
}

/** main → worker. */
export type PoolMessage =
  | { readonly type: 'run'; readonly id: number; readonly query: PoolQuery }
  | { readonly type: 'cancel'; readonly id: number };

/** worker → main: the answer of one `run`, or why it failed. */
export type PoolReply =
  | { readonly id: number; readonly result: RunQueryResult }
  | { readonly id: number; readonly error: SerializedError };
