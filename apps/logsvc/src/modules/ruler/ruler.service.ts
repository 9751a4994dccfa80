import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';

/**
 * Lifecycle of the ruler component, whose role is: Evaluates alerting and recording rule groups.
 * Its lifecycle hooks (starting / running / stopping) are where the component's work plugs in.
 */
@Injectable()
export class RulerService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'ruler';

  constructor(@Inject(ServiceRegistry) private readonly registry: ServiceRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }
}
