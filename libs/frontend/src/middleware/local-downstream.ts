/**
 * The single binary's downstream: sub-queries go through the scheduler's fair queue (tenant,
 * then actor path) in this process, and a fixed number of local workers take them from it in
 * turn and run them, as Loki's querier workers take them from a scheduler.
 */
import { LogsvcError } from '@logsvc/errors';
import type { Downstream, DownstreamOptions, SubQuery, SubQueryResult } from '../downstream';
import { RequestQueue, type RequestQueueOptions } from '../queue/request-queue';

/** Runs one sub-query (on the event loop or in a worker thread). */
export type SubQueryExecutor = (query: SubQuery, signal: AbortSignal) => Promise<SubQueryResult>;

interface Job {
  readonly query: SubQuery;
  readonly signal: AbortSignal;
  readonly resolve: (r: SubQueryResult) => void;
  readonly reject: (e: unknown) => void;
}

export interface LocalDownstreamOptions extends RequestQueueOptions {
  /** Workers taking sub-queries from the queue (`querier.max_concurrent`). */
  readonly workers: number;
}

export class LocalDownstream implements Downstream {
  private readonly queue: RequestQueue<Job>;
  private readonly stopping = new AbortController();
  private readonly loops: Promise<void>[];

  constructor(
    private readonly execute: SubQueryExecutor,
    options: LocalDownstreamOptions,
  ) {
    this.queue = new RequestQueue<Job>(options);
    this.loops = Array.from({ length: Math.max(1, options.workers) }, (_, i) =>
      this.work(`local-${i}`),
    );
  }

  run(query: SubQuery, options: DownstreamOptions): Promise<SubQueryResult> {
    return new Promise((resolve, reject) => {
      options.signal.throwIfAborted();
      const tenant = query.tenants.join('|');
      this.queue.enqueue(tenant, options.actorPath ?? [], {
        query,
        signal: options.signal,
        resolve,
        reject,
      });
    });
  }

  /** Sub-queries waiting in the queue, of one tenant or of all. */
  queued(tenant?: string): number {
    return this.queue.length(tenant);
  }

  /** Lets the queued sub-queries run, then ends the workers. */
  async close(): Promise<void> {
    await this.queue.stop();
    this.stopping.abort();
    await Promise.allSettled(this.loops);
  }

  private async work(id: string): Promise<void> {
    const connection = this.queue.connect(id);
    try {
      for (;;) {
        let job: Job;
        try {
          job = (await connection.next(this.stopping.signal)).item;
        } catch (err) {
          if (this.stopping.signal.aborted || err instanceof LogsvcError) return;
          throw err;
        }
        if (job.signal.aborted) {
          job.reject(job.signal.reason);
          continue;
        }
        try {
          job.resolve(await this.execute(job.query, job.signal));
        } catch (err) {
          job.reject(err);
        }
      }
    } finally {
      connection.close();
    }
  }
}
