/**
 * What the query frontend sends on: sub-queries (a part of a query's range, maybe one shard of
 * its streams) to whoever runs them, and whole HTTP requests to a querier in a cluster. The
 * frontend's middleware works on these types; the single binary runs them in-process, a
 * cluster carries them over the queue (scheduler or frontend) to querier workers over gRPC.
 */
import type { QueryAnswer, SubQuery } from '@logsvc/query-codec';

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

/** An HTTP request carried to a querier whole (Loki's httpgrpc), and its answer. */
export interface HttpJob {
  readonly method: string;
  /** Path and query string, e.g. `/loki/api/v1/labels?start=...`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface HttpJobResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/**
 * The fair queue as the frontend sees it: a job is queued under its tenant and actor path,
 * picked by a querier worker, and its answer comes back. Rejects with the queue's 429 error
 * when the tenant has too many outstanding requests, and when `signal` aborts.
 */
export interface JobQueue {
  submit(
    tenant: string,
    actorPath: readonly string[],
    job: HttpJob,
    signal: AbortSignal,
  ): Promise<HttpJobResult>;
}
