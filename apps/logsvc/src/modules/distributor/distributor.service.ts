import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';

/**
 * Lifecycle of the distributor component, whose role is: Accepts pushes, validates them against the tenant limits and hands them to ingesters.
 * Its lifecycle hooks (starting / running / stopping) are where the component's work plugs in.
 */
@Injectable()
export class DistributorService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'distributor';

  constructor(@Inject(ServiceRegistry) private readonly registry: ServiceRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }
}
