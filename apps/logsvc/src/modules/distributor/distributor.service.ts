import type { Config } from '@logsvc/config';
import type { PatternTee } from '@logsvc/pattern';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, LOGGER } from '../../tokens';
import { PATTERN_TEE } from '../clients/pattern-clients.provider';
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
    @Inject(CONFIG) private readonly config: Config,
    @Inject(PATTERN_TEE) private readonly tee: PatternTee | null,
  ) {
    super(registry, rings, 'distributor', logger.child({ component: 'distributor' }));
  }

  /**
   * Leaves the ring, then sends what the pattern tee still holds, waiting at most
   * `tee_config.stop_flush_timeout` (Loki's tee service stops after the distributor).
   */
  override async stopping(): Promise<void> {
    await super.stopping();
    await this.tee?.stop(this.config.pattern_ingester.tee_config.stop_flush_timeout);
  }

  /** Healthy members of the distributor ring, at least 1 (this one). */
  healthyDistributors(): number {
    const watcher = this.rings.watcher('distributor');
    if (!watcher) return 1;
    return Math.max(1, watcher.ring().healthyCount('write'));
  }
}
