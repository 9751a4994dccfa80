import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { LOGGER } from '../../tokens';
import { RingMemberService } from '../cluster/ring-member';
import { RingsService } from '../cluster/rings.service';

/**
 * The distributor's membership of the distributor ring: how many healthy distributors share a
 * tenant's `global` ingestion rate (Loki's `ingestion_rate_strategy: global`).
 */
@Injectable()
export class DistributorService extends RingMemberService {
  readonly serviceName = 'distributor';

  constructor(
    @Inject(ServiceRegistry) registry: ServiceRegistry,
    @Inject(RingsService) rings: RingsService,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(registry, rings, 'distributor', logger.child({ component: 'distributor' }));
  }

  /** Healthy members of the distributor ring, at least 1 (this one). */
  healthyDistributors(): number {
    const watcher = this.rings.watcher('distributor');
    if (!watcher) return 1;
    return Math.max(1, watcher.ring().healthyCount('write'));
  }
}
