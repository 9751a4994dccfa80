import { Overrides } from '@logsvc/config';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { LOGGER, OVERRIDES } from '../../tokens';

/** Loads the runtime config file (per-tenant overrides) and re-reads it every period. */
@Injectable()
export class RuntimeConfigService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'runtime-config';

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(OVERRIDES) private readonly overrides: Overrides,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async starting(): Promise<void> {
    await this.overrides.start();
    const tenants = this.overrides.tenants();
    if (tenants.length > 0) this.logger.info({ tenants }, 'loaded per-tenant overrides');
  }

  async stopping(): Promise<void> {
    this.overrides.stop();
  }
}
