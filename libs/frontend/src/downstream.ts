/**
 * What the query frontend sends on: sub-queries (a part of a query's range, maybe one shard of
 * its streams) to whoever runs them, and in a cluster typed jobs (QueryJob) to queriers. The
 * frontend's middleware works on these types; the single binary runs them in-process, a
 * cluster carries them over the queue (scheduler or frontend) to querier workers over gRPC.
 */
import type { QueryAnswer, QueryJob, QueryJobAnswer, SubQuery } from '@logsvc/query-codec';

export { type ShardRef, parseShard, shardText } from '@logsvc/api';

export type { SubQuery } from '@logsvc/query-codec';

/** What a sub-query answers: its result and the stats of computing it. */
export type SubQueryResult = QueryAnswer;

export interface DownstreamOptions {
  /** Aborts the sub-query (the client went away, the query timed out, a sibling failed). */
  readonly signal: AbortSignal;
  /** The request's `X-Logsvc-Actor-Path` / `X-Loki-Actor-Path`, split at `|`. */
  readonly actorPath?: readonly string[];
}

/** Runs sub-queries: in-process in the single binary, through the queue in a cluster. */
export interface Downstream {
  run(query: SubQuery, options: DownstreamOptions): Promise<SubQueryResult>;
}

export type { QueryJob, QueryJobAnswer } from '@logsvc/query-codec';

/**
 * The fair queue as the frontend sees it: a job is queued under its tenant and actor path,
 * picked by a querier worker, and its answer comes back. Rejects with the queue's 429 error
 * when the tenant has too many outstanding requests, and when `signal` aborts.
 */
export interface JobQueue {
  submit(
    tenant: string,
    actorPath: readonly string[],
    job: QueryJob,
    signal: AbortSignal,
  ): Promise<QueryJobAnswer>;
}
