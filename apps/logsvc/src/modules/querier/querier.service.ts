import { Querier, type QueryWorkerPool } from '@logsvc/querier';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { QUERY_WORKER_POOL } from './query-worker-pool.provider';
import { TailSockets } from './tail/tail-sockets.service';

/**
 * Lifecycle of the querier component, whose role is: Answers LogQL queries from ingesters and the store.
 * Stopping ends the open tails, the querier's chunk scan worker threads and its query worker
 * threads.
 */
@Injectable()
export class QuerierService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'querier';

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(Querier) private readonly querier: Querier,
    @Inject(TailSockets) private readonly tails: TailSockets,
    @Inject(QUERY_WORKER_POOL) private readonly queryPool: QueryWorkerPool | null,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async stopping(): Promise<void> {
    this.tails.closeAll();
    await Promise.all([this.querier.close(), this.queryPool?.close()]);
  }
}
