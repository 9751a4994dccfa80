import type { Config } from '@logsvc/config';
import { LogsvcError } from '@logsvc/errors';
import type { JobQueue } from '@logsvc/frontend';
import { ClientPool, GrpcSchedulerClient, GrpcSchedulerQueue } from '@logsvc/rpc';
import type { Provider } from '@nestjs/common';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, JOB_QUEUE } from '../../tokens';
import { LocalJobQueue } from '../query-queue/local-job-queue';
import { queryRouting } from '../cluster/query-routing';
import { rpcClientOptions } from '../../rpc-client-options';
import { RingsService } from '../cluster/rings.service';
import { schedulerAddresses } from '../cluster/scheduler-ring';

/** Connections to query schedulers, by address. */
export const SCHEDULER_POOL = Symbol('logsvc.schedulerPool');

export const schedulerPoolProvider: Provider = {
  provide: SCHEDULER_POOL,
  useFactory: (config: Config) =>
    new ClientPool(
      (address) =>
        new GrpcSchedulerClient(address, {
          ...rpcClientOptions(config, config.frontend.grpc_client_config),
          // A job's call lasts while it is queued and run: as long as a query may.
          timeoutMs: config.limits_config.query_timeout,
        }),
    ),
  inject: [CONFIG],
};

/** Outside a cluster nothing pulls jobs: the querier routes answer requests themselves. */
const NO_WORKERS: JobQueue = {
  submit: () =>
    Promise.reject(
      new LogsvcError(
        'unavailable',
        'no querier workers: outside a cluster, queries are answered in-process',
      ),
    ),
};

/**
 * JOB_QUEUE, the frontend's queue (see QueryRouting.frontendQueue): this process's dispatcher,
 * the scheduler at `frontend.scheduler_address`, or the schedulers of the scheduler ring.
 */
export const jobQueueProvider: Provider = {
  provide: JOB_QUEUE,
  useFactory: (
    config: Config,
    components: readonly Component[],
    local: LocalJobQueue,
    rings: RingsService,
    pool: ClientPool<GrpcSchedulerClient>,
  ): JobQueue => {
    switch (queryRouting(config, components).frontendQueue) {
      case 'local':
        return local.dispatcher ?? NO_WORKERS;
      case 'scheduler-address':
        return new GrpcSchedulerQueue(() => [config.frontend.scheduler_address], pool);
      case 'scheduler-ring':
        return new GrpcSchedulerQueue(() => schedulerAddresses(rings), pool);
      case 'none':
        return NO_WORKERS;
    }
  },
  inject: [CONFIG, COMPONENTS, LocalJobQueue, RingsService, SCHEDULER_POOL],
};
