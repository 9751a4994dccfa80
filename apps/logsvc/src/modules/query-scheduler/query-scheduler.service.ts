import type { Config } from '@logsvc/config';
import type { Lifecycler } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, LOGGER } from '../../tokens';
import { GrpcServerService } from '../cluster/grpc-server.service';
import { LocalJobQueue } from '../query-queue/local-job-queue';
import { queryRouting } from '../cluster/query-routing';
import { memberLifecycler } from '../cluster/ring-member';
import { RingsService } from '../cluster/rings.service';

/**
 * The query scheduler: holds the fair queue (LocalJobQueue) that frontends submit to and
 * querier workers pull from, both over gRPC (the gRPC server carries the services). With
 * `query_scheduler.use_scheduler_ring` it registers in the scheduler ring, where frontends and
 * queriers find it. Stopping, it waits until connected queriers took the queued jobs.
 */
@Injectable()
export class QuerySchedulerService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'query-scheduler';
  private lifecycler: Lifecycler | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(GrpcServerService) private readonly grpc: GrpcServerService,
    @Inject(LocalJobQueue) private readonly jobs: LocalJobQueue,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'query-scheduler' });
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async starting(): Promise<void> {
    if (!queryRouting(this.config, this.components).joinsSchedulerRing) return;
    this.lifecycler = memberLifecycler(this.rings, 'scheduler', this.grpc.port, this.logger);
    await this.lifecycler.start();
  }

  async stopping(): Promise<void> {
    await this.lifecycler?.stop();
    await this.jobs.dispatcher?.stop();
  }
}
