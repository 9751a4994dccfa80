import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';

/**
 * Lifecycle of the index-gateway component, whose role is: Serves index lookups to queriers in microservices mode.
 * Its lifecycle hooks (starting / running / stopping) are where the component's work plugs in.
 */
@Injectable()
export class IndexGatewayService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'index-gateway';

  constructor(@Inject(ServiceRegistry) private readonly registry: ServiceRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }
}
