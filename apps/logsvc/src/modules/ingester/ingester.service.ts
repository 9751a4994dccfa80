import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';

/**
 * Lifecycle of the ingester component, whose role is: Holds recent streams in memory behind the write-ahead log and flushes chunks to storage.
 * Its lifecycle hooks (starting / running / stopping) are where the component's work plugs in.
 */
@Injectable()
export class IngesterService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'ingester';

  constructor(@Inject(ServiceRegistry) private readonly registry: ServiceRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }
}
