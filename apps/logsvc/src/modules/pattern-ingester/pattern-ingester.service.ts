import type { Config } from '@logsvc/config';
import { DEFAULT_DRAIN_CONFIG, PatternIngester } from '@logsvc/pattern';
import { tokenFor, type Lifecycler } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, LOGGER } from '../../tokens';
import { sharesRing } from '../cluster/cluster-mode';
import { GrpcServerService } from '../cluster/grpc-server.service';
import { LocalPatternIngester } from '../cluster/local-pattern-ingester';
import { memberLifecycler } from '../cluster/ring-member';
import { RingsService } from '../cluster/rings.service';

/**
 * The pattern ingester component: a PatternIngester in memory, registered in the pattern ring
 * (where distributors' tees and queriers find it), swept every `flush_check_period`.
 */
@Injectable()
export class PatternIngesterService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'pattern-ingester';
  private lifecycler: Lifecycler | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(GrpcServerService) private readonly grpc: GrpcServerService,
    @Inject(LocalPatternIngester) private readonly local: LocalPatternIngester,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'pattern-ingester' });
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async starting(): Promise<void> {
    const c = this.config.pattern_ingester;
    const ingester = new PatternIngester({
      drain: {
        ...DEFAULT_DRAIN_CONFIG,
        maxClusters: c.max_clusters,
        maxEvictionRatio: c.max_eviction_ratio,
        maxAllowedLineLength: c.max_allowed_line_length,
      },
      owns: sharesRing(this.config) ? (tenant, labels) => this.owns(tenant, labels) : undefined,
    });
    this.local.attach(ingester);
    this.sweeper = setInterval(() => ingester.sweep(), c.flush_check_period).unref();
    this.lifecycler = memberLifecycler(this.rings, 'pattern-ingester', this.grpc.port, this.logger);
    await this.lifecycler.start();
  }

  async stopping(): Promise<void> {
    await this.lifecycler?.stop();
    clearInterval(this.sweeper);
    this.local.attach(undefined);
  }

  /** Loki counts only the streams whose token falls to this instance in the pattern ring. */
  private owns(tenant: string, labelsText: string): boolean {
    const watcher = this.rings.watcher('pattern-ingester');
    const id = this.lifecycler?.id;
    if (!watcher || id === undefined) return true;
    try {
      const owners = watcher.ring().writeSet(tokenFor(tenant, labelsText)).instances;
      return owners.some((i) => i.id === id);
    } catch {
      return false;
    }
  }
}
