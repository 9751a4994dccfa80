import { LogsvcError } from '@logsvc/errors';
import { errorAnswer } from '@logsvc/query-codec';
import type { JobDispatcher } from './dispatcher';
import type { JobExecutor } from './job';

export interface LocalWorkersOptions {
  readonly querierId: string;
  /** Connections, i.e. jobs run at once (`querier.max_concurrent`). */
  readonly concurrency: number;
  readonly execute: JobExecutor;
  /** Told of a job that failed to run (the job is answered 500 with the error's text). */
  readonly onError?: (err: unknown) => void;
}

/**
 * A querier's workers on a dispatcher of its own process (no gRPC to itself): `concurrency`
 * connections, each running one job at a time through `execute`. `stop` notifies the
 * dispatcher, lets running jobs finish and closes the connections.
 */
export class LocalWorkers {
  private readonly stopping = new AbortController();
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly dispatcher: JobDispatcher,
    private readonly options: LocalWorkersOptions,
  ) {}

  start(): void {
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop());
  }

  async stop(): Promise<void> {
    this.dispatcher.notifyQuerierShutdown(this.options.querierId);
    this.stopping.abort();
    await Promise.all(this.loops);
  }

  private async loop(): Promise<void> {
    const conn = this.dispatcher.connect(this.options.querierId);
    try {
      for (;;) {
        let assignment;
        try {
          assignment = await conn.next(this.stopping.signal);
        } catch (err) {
          if (err instanceof LogsvcError && (err.kind === 'canceled' || err.kind === 'unavailable'))
            return;
          throw err;
        }
        const result = await this.options
          .execute(assignment.tenant, assignment.job, assignment.signal)
          .catch((err: unknown) => {
            this.options.onError?.(err);
            return errorAnswer(500, err instanceof Error ? err.message : String(err));
          });
        conn.complete(assignment.id, result);
      }
    } finally {
      conn.close();
    }
  }
}
