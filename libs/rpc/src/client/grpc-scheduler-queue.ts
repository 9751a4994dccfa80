import { LogsvcError } from '@logsvc/errors';
import type { QueryJob, QueryJobAnswer, JobQueue } from '@logsvc/frontend';
import { SCHEDULER_FOR_FRONTEND_SERVICE } from '../services';
import { decodeJobResult, encodeJobRequest } from '../wire/query-job';
import type { ClientPool } from './client-pool';
import { decoded } from './decoded';
import { RpcChannel, type RpcClientOptions } from './rpc-channel';

/** One query scheduler, reached over gRPC (`SchedulerForFrontend/Submit`). */
export class GrpcSchedulerClient {
  private readonly channel: RpcChannel;

  /** `options.timeoutMs` bounds a whole job (queueing and running): the query timeout. */
  constructor(
    readonly address: string,
    options: RpcClientOptions = {},
  ) {
    this.channel = new RpcChannel(address, SCHEDULER_FOR_FRONTEND_SERVICE, 'Scheduler', options);
  }

  async submit(
    tenant: string,
    actorPath: readonly string[],
    job: QueryJob,
    signal: AbortSignal,
  ): Promise<QueryJobAnswer> {
    const response = await this.channel.unary(
      SCHEDULER_FOR_FRONTEND_SERVICE.Submit,
      tenant,
      encodeJobRequest(actorPath, job),
      signal,
    );
    return decoded('job', () => decodeJobResult(response));
  }

  close(): void {
    this.channel.close();
  }
}

/** An answer "the scheduler could not be reached", as opposed to one the scheduler gave. */
function unreachable(err: unknown): boolean {
  return err instanceof LogsvcError && err.kind === 'unavailable' && err.cause !== undefined;
}

/**
 * The frontend's queue when it has schedulers (`frontend.scheduler_address`, or those of the
 * scheduler ring): each job goes to the next scheduler in turn; a scheduler that cannot be
 * reached is skipped for the next one.
 */
export class GrpcSchedulerQueue implements JobQueue {
  private turn = 0;

  constructor(
    private readonly addresses: () => readonly string[],
    private readonly pool: ClientPool<GrpcSchedulerClient>,
  ) {}

  async submit(
    tenant: string,
    actorPath: readonly string[],
    job: QueryJob,
    signal: AbortSignal,
  ): Promise<QueryJobAnswer> {
    const addresses = this.addresses();
    if (addresses.length === 0) {
      throw new LogsvcError('unavailable', 'no query-scheduler is available');
    }
    const first = this.turn++ % addresses.length;
    let lastError: unknown;
    for (let i = 0; i < addresses.length; i++) {
      const address = addresses[(first + i) % addresses.length] as string;
      try {
        return await this.pool.get(address).submit(tenant, actorPath, job, signal);
      } catch (err) {
        if (!unreachable(err) || signal.aborted) throw err;
        lastError = err;
      }
    }
    throw lastError;
  }
}
