import type { Config } from '@logsvc/config';
import { DEFAULT_DRAIN_CONFIG, PatternIngester } from '@logsvc/pattern';
import { Lifecycler, tokenFor } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, LOGGER } from '../../tokens';
import { sharesRing } from '../cluster/cluster-mode';
import { GrpcServerService } from '../cluster/grpc-server.service';
import { LocalPatternIngester } from '../cluster/local-pattern-ingester';
import { PatternMetrics } from '../cluster/pattern-metrics';
import { RingsService } from '../cluster/rings.service';

/**
 * The pattern ingester component: a PatternIngester in memory, registered in the pattern ring
 * (where distributors' tees and queriers find it), swept every `flush_check_period`. Its ring
 * membership follows `pattern_ingester.lifecycler` as the ingester's follows
 * `ingester.lifecycler` (join_after, min_ready_duration, tokens file, readiness check of the
 * ring's health), and on a shared ring `/ready` waits for it, as Loki's readiness handler does.
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
    @Inject(PatternMetrics) private readonly metrics: PatternMetrics,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'pattern-ingester' });
  }

  onModuleInit(): void {
    this.registry.register(this);
    this.metrics.streamsGauge(() => this.local.ingester?.streamCount ?? 0);
    // As the ingester's: only a shared ring gates /ready (Loki's readyHandler asks
    // PatternIngester.CheckReady, i.e. its lifecycler's CheckReady).
    if (sharesRing(this.config)) {
      this.registry.addReadinessCheck(() => {
        const reason = this.lifecycler ? this.lifecycler.checkReady() : 'not in the ring yet';
        return reason === null ? null : `Pattern Ingester not ready: ${reason}`;
      });
    }
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
      countersFor: (tenant, format) => this.metrics.drainCounters(tenant, format),
    });
    this.local.attach(ingester);
    this.sweeper = setInterval(() => ingester.sweep(), c.flush_check_period).unref();
    this.lifecycler = this.newLifecycler();
    await this.lifecycler.start();
  }

  /** The pattern ring member, on the gRPC port the distributors' tees and queriers call. */
  private newLifecycler(): Lifecycler {
    const s = this.rings.settings('pattern-ingester');
    const shared = sharesRing(this.config);
    return new Lifecycler({
      kv: this.rings.kv('pattern-ingester'),
      key: s.key,
      id: s.instanceId,
      addr: `${s.instanceAddr}:${this.grpc.port ?? s.instancePort}`,
      zone: s.zone,
      numTokens: s.numTokens,
      ...(s.tokensFilePath === '' ? {} : { tokensFilePath: s.tokensFilePath }),
      heartbeatPeriodMs: s.heartbeatPeriodMs,
      heartbeatTimeoutMs: s.heartbeatTimeoutMs,
      // The single binary's in-memory ring has only this member: nothing to wait for.
      joinAfterMs: shared ? s.joinAfterMs : 0,
      minReadyDurationMs: shared ? s.minReadyDurationMs : 0,
      finalSleepMs: shared ? s.finalSleepMs : 0,
      unregisterOnShutdown: s.unregisterOnShutdown,
      readinessCheckRingHealth: s.readinessCheckRingHealth,
      logger: this.logger,
    });
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
