import { LogsvcError } from '@logsvc/errors';
import { jobQueryText } from '@logsvc/query-codec';
import type { QueryJob, QueryJobAnswer, JobQueue } from '../downstream';
import { Fifo } from '../queue/fifo';
import { DEFAULT_MAX_QUEUE_HIERARCHY_LEVELS, queuePathFor } from '../queue/actor-path';
import { QUEUE_STOPPED, RequestQueue, type QuerierConnection } from '../queue/request-queue';
import type { Assignment, DispatchConnection } from './job';

/**
 * Times a job whose querier went away (killed, out of memory) is handed to another querier.
 * Loki's frontend retries up to `query_range.max_retries` (5), so one query that exhausts a
 * querier's memory can take down five; here a job is retried once, then answered with an error.
 */
export const DEFAULT_MAX_RETRIES = 1;

/** Where the dispatcher reports a job whose querier went away (pino's `(obj, msg)` shape). */
export interface DispatchLogger {
  warn(obj: object, msg: string): void;
}

export interface JobDispatcherOptions {
  /** `query_scheduler.max_outstanding_requests_per_tenant` (or the frontend's own limit). */
  readonly maxOutstandingPerTenant: number;
  /** `query_scheduler.max_queue_hierarchy_levels`; default 3. */
  readonly maxQueueHierarchyLevels?: number;
  /** Times a job whose querier went away is handed to another one; default 1. */
  readonly maxRetries?: number;
  /** Told of every job whose querier went away, with its tenant and query. */
  readonly logger?: DispatchLogger;
  /** Where the queue's events are counted (the app exports them under Loki's names). */
  readonly metrics?: QueueMetrics;
}

/**
 * What a dispatcher reports, as Loki's queue metrics count it (`queue_length`,
 * `discarded_requests_total`, `enqueue_count`, `queue_duration_seconds`).
 */
export interface QueueMetrics {
  /** A job joined the tenant's queue, under `level` levels of its actor path. */
  enqueued(tenant: string, level: number): void;
  /** A job was refused: the tenant had `max_outstanding` jobs queued. */
  discarded(tenant: string): void;
  /** A querier took a job out of the tenant's queue `seconds` after it joined. */
  dequeued(tenant: string, seconds: number): void;
}

const NO_QUEUE_METRICS: QueueMetrics = {
  enqueued: () => undefined,
  discarded: () => undefined,
  dequeued: () => undefined,
};

type JobState = 'queued' | 'running' | 'done';

interface PendingJob {
  readonly id: number;
  readonly tenant: string;
  readonly actorPath: readonly string[];
  readonly job: QueryJob;
  /** Aborted when the caller goes away; what a querier running the job listens to. */
  readonly cancel: AbortController;
  retries: number;
  state: JobState;
  /** When it joined the queue (`performance.now()`), until a querier first takes it. */
  queuedAtMs: number | undefined;
  settle(outcome: { result: QueryJobAnswer } | { error: Error }): void;
}

/**
 * The queue between query frontends and querier workers (Loki's scheduler, or a frontend
 * without one): callers `submit` jobs, which wait in a `RequestQueue` (fair by tenant and actor
 * path, 429 over the tenant's limit); querier connections take one job at a time and answer
 * it. A connection that breaks while it holds a job (its querier was killed) puts the job back
 * ahead of everything queued, so that another querier runs it, at most `maxRetries` times (then
 * the job fails, and the logger is told which tenant and query it was). A caller that gives up
 * has its job dropped from the queue, or cancelled on its querier.
 */
export class JobDispatcher implements JobQueue {
  private readonly queue: RequestQueue<PendingJob>;
  private readonly maxRetries: number;
  private readonly maxLevels: number;
  private readonly metrics: QueueMetrics;
  private readonly logger: DispatchLogger | undefined;
  /** Jobs of broken connections, served before the fair queue. */
  private readonly retries = new Fifo<PendingJob>();
  private readonly retryWaiters = new Set<() => void>();
  private readonly live = new Set<PendingJob>();
  private nextId = 1;
  private stopped = false;

  constructor(options: JobDispatcherOptions) {
    this.queue = new RequestQueue<PendingJob>({
      maxOutstandingPerTenant: options.maxOutstandingPerTenant,
      ...(options.maxQueueHierarchyLevels === undefined
        ? {}
        : { maxQueueHierarchyLevels: options.maxQueueHierarchyLevels }),
    });
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.maxLevels = options.maxQueueHierarchyLevels ?? DEFAULT_MAX_QUEUE_HIERARCHY_LEVELS;
    this.metrics = options.metrics ?? NO_QUEUE_METRICS;
    this.logger = options.logger;
  }

  /** Jobs waiting for a querier (queued or put back), not counting those running. */
  get queued(): number {
    return this.queue.length() + this.retries.length;
  }

  /** Queriers with an open connection. */
  get querierCount(): number {
    return this.queue.querierCount;
  }

  /** Open querier connections (each querier opens `querier.max_concurrent`). */
  get connectionCount(): number {
    return this.queue.connectionCount;
  }

  submit(
    tenant: string,
    actorPath: readonly string[],
    job: QueryJob,
    signal: AbortSignal,
  ): Promise<QueryJobAnswer> {
    if (signal.aborted) return Promise.reject(canceled(signal));
    return new Promise<QueryJobAnswer>((resolve, reject) => {
      const onAbort = (): void => {
        pending.cancel.abort(signal.reason);
        pending.settle({ error: canceled(signal) });
      };
      const pending: PendingJob = {
        id: this.nextId++,
        tenant,
        actorPath: [...actorPath],
        job,
        cancel: new AbortController(),
        retries: 0,
        state: 'queued',
        queuedAtMs: performance.now(),
        settle: (outcome) => {
          if (pending.state === 'done') return;
          pending.state = 'done';
          this.live.delete(pending);
          signal.removeEventListener('abort', onAbort);
          if ('result' in outcome) resolve(outcome.result);
          else reject(outcome.error);
        },
      };
      // Throws the queue's 429 (or "queue is stopped") at once: nothing was queued then.
      try {
        this.queue.enqueue(tenant, actorPath, pending);
      } catch (err) {
        if (err instanceof LogsvcError && err.kind === 'limit') this.metrics.discarded(tenant);
        throw err;
      }
      this.metrics.enqueued(tenant, queuePathFor(actorPath, this.maxLevels).length);
      this.live.add(pending);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Registers one connection of a querier (`querier.max_concurrent` of them per querier). */
  connect(querierId: string): DispatchConnection {
    const conn = this.queue.connect(querierId);
    const closing = new AbortController();
    let held: PendingJob | undefined;
    return {
      querierId,
      next: async (signal) => {
        if (held !== undefined) {
          throw new LogsvcError('internal', `job ${held.id} is not answered yet`);
        }
        const wait =
          signal === undefined ? closing.signal : AbortSignal.any([signal, closing.signal]);
        for (;;) {
          const pending = await this.take(conn, wait);
          if (closing.signal.aborted) {
            this.putBack(pending, false);
            throw new LogsvcError('canceled', 'connection closed');
          }
          // A job whose caller went away while it was queued is dropped here.
          if (pending.state === 'done') continue;
          pending.state = 'running';
          held = pending;
          return assignment(pending);
        }
      },
      complete: (id, result) => {
        if (held?.id !== id) return;
        const pending = held;
        held = undefined;
        pending.settle({ result });
      },
      close: () => {
        if (closing.signal.aborted) return;
        closing.abort();
        conn.close();
        if (held !== undefined) this.putBack(held, true);
        held = undefined;
      },
    };
  }

  /** A querier announced a graceful shutdown: it is given no more jobs. */
  notifyQuerierShutdown(querierId: string): void {
    this.queue.notifyQuerierShutdown(querierId);
  }

  /**
   * Stops taking jobs: waits until connected queriers took every queued job (as Loki's
   * scheduler), then fails the jobs still waiting and every later `submit` with "queue is
   * stopped". Jobs running on queriers finish.
   */
  async stop(): Promise<void> {
    await this.queue.stop();
    this.stopped = true;
    for (const pending of [...this.live]) {
      if (pending.state === 'queued') pending.settle({ error: stoppedError() });
    }
    this.wakeRetryWaiters();
  }

  /** The next job for a connection: a put-back one first, else the fair queue's next. */
  private async take(
    conn: QuerierConnection<PendingJob>,
    signal: AbortSignal,
  ): Promise<PendingJob> {
    for (;;) {
      const retry = this.retries.shift();
      if (retry !== undefined) {
        if (retry.state === 'done') continue;
        return retry;
      }
      if (this.stopped) throw stoppedError();
      const stopWaiting = new AbortController();
      const onAbort = (): void => stopWaiting.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      let wake = (): void => {};
      const retryReady = new Promise<'retry'>((resolve) => {
        wake = () => resolve('retry');
      });
      this.retryWaiters.add(wake);
      const fromQueue = conn.next(stopWaiting.signal);
      try {
        const first = await Promise.race([fromQueue, retryReady]);
        if (first !== 'retry') return this.leftQueue(first.item);
        stopWaiting.abort();
        // The queue may have handed this connection a job just before: keep it.
        const got = await fromQueue.catch(() => undefined);
        if (got !== undefined) return this.leftQueue(got.item);
      } finally {
        this.retryWaiters.delete(wake);
        signal.removeEventListener('abort', onAbort);
      }
    }
  }

  /** Counts a job's first way out of the fair queue (a retried job is not queued again). */
  private leftQueue(pending: PendingJob): PendingJob {
    if (pending.queuedAtMs !== undefined) {
      this.metrics.dequeued(pending.tenant, (performance.now() - pending.queuedAtMs) / 1000);
      pending.queuedAtMs = undefined;
    }
    return pending;
  }

  /** Puts a job back ahead of the queue; a broken connection counts as one retry. */
  private putBack(pending: PendingJob, broken: boolean): void {
    if (pending.state === 'done') return;
    if (broken) pending.retries++;
    if (this.stopped) return pending.settle({ error: stoppedError() });
    const givingUp = pending.retries > this.maxRetries;
    if (broken) {
      this.logger?.warn(
        {
          tenant: pending.tenant,
          query: jobQueryText(pending.job),
          kind: pending.job.kind,
          retries: pending.retries,
        },
        givingUp
          ? 'queriers running a query went away (killed or out of memory); not retrying it again'
          : 'the querier running a query went away (killed or out of memory); retrying it once on another querier',
      );
    }
    if (givingUp) {
      return pending.settle({
        error: new LogsvcError(
          'unavailable',
          `the querier running the request went away ${pending.retries} times; the request is not retried again`,
        ),
      });
    }
    pending.state = 'queued';
    this.retries.push(pending);
    this.wakeRetryWaiters();
  }

  private wakeRetryWaiters(): void {
    for (const wake of [...this.retryWaiters]) wake();
  }
}

function assignment(pending: PendingJob): Assignment {
  return {
    id: pending.id,
    tenant: pending.tenant,
    actorPath: pending.actorPath,
    job: pending.job,
    signal: pending.cancel.signal,
    retries: pending.retries,
  };
}

function canceled(signal: AbortSignal): LogsvcError {
  return new LogsvcError('canceled', 'context canceled', { cause: signal.reason });
}

function stoppedError(): LogsvcError {
  return new LogsvcError('unavailable', QUEUE_STOPPED);
}
