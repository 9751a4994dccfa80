import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';

/**
 * Lifecycle of the query-scheduler component, whose role is: Queues sub-queries fairly per tenant (and actor path) for the queriers.
 * Its lifecycle hooks (starting / running / stopping) are where the component's work plugs in.
 */
@Injectable()
export class QuerySchedulerService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'query-scheduler';

  constructor(@Inject(ServiceRegistry) private readonly registry: ServiceRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }
}
