import type { QueryJob, QueryJobAnswer } from '../downstream';

/** Runs one job on a querier: its querier library, in-process. */
export type JobExecutor = (
  tenant: string,
  job: QueryJob,
  signal: AbortSignal,
) => Promise<QueryJobAnswer>;

/**
 * A job handed to one querier connection. The connection answers it with `complete`; when its
 * caller gives up, `signal` aborts and the querier should stop working on it (its answer is
 * then dropped). A connection closed before answering puts the job back for another querier.
 */
export interface Assignment {
  /** Unique in this dispatcher; the wire protocol names the job by it. */
  readonly id: number;
  readonly tenant: string;
  readonly actorPath: readonly string[];
  readonly job: QueryJob;
  /** Aborts when the caller went away: the answer is no longer wanted. */
  readonly signal: AbortSignal;
  /** How many queriers were handed this job before, whose connection broke. */
  readonly retries: number;
}

/** One querier connection to a dispatcher, taking one job at a time. */
export interface DispatchConnection {
  readonly querierId: string;
  /**
   * The next job for this connection, waiting until one is queued. Rejects with kind `canceled`
   * when `signal` aborts, kind `unavailable` once the dispatcher stops, and when the previous
   * job is not answered yet.
   */
  next(signal?: AbortSignal): Promise<Assignment>;
  /** Answers the job this connection holds (a late answer to a cancelled job is dropped). */
  complete(id: number, result: QueryJobAnswer): void;
  /**
   * Unregisters the connection. A job it holds unanswered goes back to the front of the queue
   * for another querier, or fails once it was retried `maxRetries` times.
   */
  close(): void;
}
