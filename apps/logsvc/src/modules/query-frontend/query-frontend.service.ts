import type { ClientPool, GrpcSchedulerClient } from '@logsvc/rpc';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { Component } from '../../targets';
import { COMPONENTS } from '../../tokens';
import { LocalJobQueue } from '../query-queue/local-job-queue';
import { SCHEDULER_POOL } from './job-queue.provider';

/**
 * The query frontend's lifecycle: its requests go out through FrontendForwarder; stopping, a
 * frontend that holds the queue itself (no scheduler) stops it, and connections to schedulers
 * are closed.
 */
@Injectable()
export class QueryFrontendService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'query-frontend';

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(LocalJobQueue) private readonly jobs: LocalJobQueue,
    @Inject(SCHEDULER_POOL) private readonly schedulers: ClientPool<GrpcSchedulerClient>,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async stopping(): Promise<void> {
    // A scheduler of this process stops its own queue, after this.
    if (!this.components.includes('query-scheduler')) await this.jobs.dispatcher?.stop();
    this.schedulers.closeAll();
  }
}
