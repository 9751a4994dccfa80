import { Querier, type QueryWorkerPool } from '@logsvc/querier';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { QUERY_WORKER_POOL } from './query-worker-pool.provider';

/**
 * Lifecycle of the querier component, whose role is: Answers LogQL queries from ingesters and the store.
 * Stopping ends the querier's chunk scan worker threads and its query worker threads (its open
 * tails ended before, with the `tail-sockets` service).
 */
@Injectable()
export class QuerierService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'querier';

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(Querier) private readonly querier: Querier,
    @Inject(QUERY_WORKER_POOL) private readonly queryPool: QueryWorkerPool | null,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async stopping(): Promise<void> {
    await Promise.all([this.querier.close(), this.queryPool?.close()]);
  }
}
