import type { Lifecycler } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { LOGGER } from '../../tokens';
import { memberLifecycler } from '../cluster/ring-member';
import { RingsService } from '../cluster/rings.service';

/**
 * The distributor's membership of the distributor ring: how many healthy distributors share a
 * tenant's `global` ingestion rate (Loki's `ingestion_rate_strategy: global`).
 */
@Injectable()
export class DistributorService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'distributor';
  private lifecycler: Lifecycler | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'distributor' });
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async starting(): Promise<void> {
    this.lifecycler = memberLifecycler(this.rings, 'distributor', undefined, this.logger);
    await this.lifecycler.start();
  }

  async stopping(): Promise<void> {
    await this.lifecycler?.stop();
  }

  /** Healthy members of the distributor ring, at least 1 (this one). */
  healthyDistributors(): number {
    const watcher = this.rings.watcher('distributor');
    if (!watcher) return 1;
    return Math.max(1, watcher.ring().healthyCount('write'));
  }
}
