import type { DeleteRequestsStore } from '@logsvc/compactor';
import type { Config, Overrides } from '@logsvc/config';
import type { JobQueue } from '@logsvc/frontend';
import { Querier, type QueryWorkerPool } from '@logsvc/querier';
import { type DynamicModule, Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, DELETE_REQUESTS, JOB_QUEUE, OVERRIDES } from '../../tokens';
import { QuerierModule } from '../querier/querier.module';
import { QUERY_WORKER_POOL } from '../querier/query-worker-pool.provider';
import { QueryFrontendModule } from '../query-frontend/query-frontend.module';
import { QueryController } from './query.controller';
import { QueryHttpGrpcHandlers } from './query-http.grpc';
import { createQueryPath, QUERY_PATH, type QueryPath } from './query-path';

/**
 * The query frontend's query path as the `query-path` service: stopping (before the querier its
 * local workers run sub-queries on) lets the queued sub-queries finish, then ends the workers.
 */
@Injectable()
class QueryPathService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'query-path';

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(QUERY_PATH) private readonly path: QueryPath,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  stopping(): Promise<void> {
    return this.path.close();
  }
}

/**
 * `query`, `query_range` and the legacy `/api/prom/query`, in every process that runs a querier
 * or a query frontend: answered through the frontend when it runs here (see `createQueryPath`),
 * else by the querier.
 */
@Module({})
export class QueryApiModule {
  static forComponents(components: readonly Component[]): DynamicModule {
    const querier = components.includes('querier');
    const frontend = components.includes('query-frontend');
    return {
      module: QueryApiModule,
      imports: [...(querier ? [QuerierModule] : []), ...(frontend ? [QueryFrontendModule] : [])],
      controllers: [QueryController],
      providers: [
        ...(frontend ? [QueryPathService, QueryHttpGrpcHandlers] : []),
        {
          provide: QUERY_PATH,
          useFactory: (
            config: Config,
            all: readonly Component[],
            overrides: Overrides,
            deleteRequests: DeleteRequestsStore,
            q?: Querier,
            pool?: QueryWorkerPool | null,
            jobs?: JobQueue,
          ) =>
            createQueryPath(
              config,
              all,
              overrides,
              q ?? null,
              pool ?? null,
              jobs ?? null,
              deleteRequests,
            ),
          inject: [
            CONFIG,
            COMPONENTS,
            OVERRIDES,
            DELETE_REQUESTS,
            { token: Querier, optional: true },
            { token: QUERY_WORKER_POOL, optional: true },
            { token: JOB_QUEUE, optional: true },
          ],
        },
      ],
    };
  }
}
