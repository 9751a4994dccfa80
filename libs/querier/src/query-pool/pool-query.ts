// What crosses the thread boundary between the QueryWorkerPool and its query workers: plain
// data only (structured clone), bigints included.
import type { DeleteRequestRecord } from '@logsvc/compactor';
import type { TenantLimits } from '@logsvc/config';
import type { MemorySelect, MemorySnapshot } from '@logsvc/ingester';
import type { RunQueryResult } from '@logsvc/logql';
import type { ChunkStoreSettings } from '@logsvc/storage';
import type { QueryRequest } from '../query-executor';
import type { ReadWindowSettings } from '../read-window';
import type { SerializedError } from './worker-errors';

/**
 * A query a worker runs (see `Querier.poolQuery`), with what the worker cannot know by itself:
 * the main thread's clock, the tenants' limits and delete requests, and how it reads memory.
 */
export interface PoolQuery extends Omit<QueryRequest, 'clientSignal'> {
  /** The main thread's now (ns), for `max_query_lookback`. */
  readonly nowNs: bigint;
  /** The limits of each of `tenants`, as the main thread's Overrides resolved them. */
  readonly limits: ReadonlyMap<string, TenantLimits>;
  /** The delete requests each of `tenants` honours (see `LineDeletions.records`). */
  readonly deletions: ReadonlyMap<string, readonly DeleteRequestRecord[]>;
  /**
   * Absent: the store alone answers the query. Present: the querier's read window; the worker
   * reads the in-process ingester's data through snapshots the main thread sends it on demand
   * (`memory` requests and answers).
   */
  readonly window?: ReadWindowSettings;
}

/** Takes, on the main thread, the snapshot a worker's query asks for (`LocalIngesterClient`). */
export type SnapshotSource = (tenant: string, select: MemorySelect) => MemorySnapshot;

/** What a query worker is started with (`workerData`). */
export interface QueryWorkerData {
  readonly store: ChunkStoreSettings;
  /** `querier.block_cache_mb` (see `ChunkDecoder`); default its default. */
  readonly blockCacheMb?: number;
}

/** main → worker. */
export type PoolMessage =
  | { readonly type: 'run'; readonly id: number; readonly query: PoolQuery }
  | { readonly type: 'cancel'; readonly id: number }
  | MemoryAnswer;

/** main → worker: the snapshot a `MemoryRequest` asked for, or why there is none. */
export type MemoryAnswer = {
  readonly type: 'memory';
  readonly id: number;
  readonly req: number;
} & ({ readonly snapshot: MemorySnapshot } | { readonly error: SerializedError });

/** worker → main: query `id` asks for the in-process ingester's streams of one select. */
export interface MemoryRequest {
  readonly id: number;
  readonly memory: { readonly req: number; readonly tenant: string; readonly select: MemorySelect };
}

/** worker → main: the answer of one `run`, or why it failed. */
export type PoolReply =
  | { readonly id: number; readonly result: RunQueryResult }
  | { readonly id: number; readonly error: SerializedError }
  | MemoryRequest;
