import type { PushStream } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { LogsvcError } from '@logsvc/errors';
import {
  DEFAULT_DRAIN_CONFIG,
  PatternIngester,
  type PatternIngesterClient,
  type PatternQuery,
  type PatternSeries,
} from '@logsvc/pattern';
import { Lifecycler, tokenFor } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, LOGGER } from '../../tokens';
import { sharesRing } from '../../cluster-mode';
import { PatternMetrics } from '../clients/pattern-metrics';
import { GrpcServerService } from '../cluster/grpc-server.service';
import { RingsService } from '../cluster/rings.service';

/**
 * The pattern ingester component: a PatternIngester in memory, registered in the pattern ring
 * (where distributors' tees and queriers find it), swept every `flush_check_period`. Its ring
 * membership follows `pattern_ingester.lifecycler` as the ingester's follows
 * `ingester.lifecycler` (join_after, min_ready_duration, tokens file, readiness check of the
 * ring's health), and on a shared ring `/ready` waits for it, as Loki's readiness handler does.
 *
 * It is also this process's in-process pattern ingester client (LOCAL_PATTERN_INGESTER): from
 * its start until it stopped; outside that, calls fail as `unavailable`.
 */
@Injectable()
export class PatternIngesterService
  implements LifecycleService, OnModuleInit, PatternIngesterClient
{
  readonly serviceName = 'pattern-ingester';
  private readonly ingester: PatternIngester;
  private serving = false;
  private lifecycler: Lifecycler | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(GrpcServerService) private readonly grpc: GrpcServerService,
    @Inject(PatternMetrics) private readonly metrics: PatternMetrics,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'pattern-ingester' });
    const c = config.pattern_ingester;
    this.ingester = new PatternIngester({
      drain: {
        ...DEFAULT_DRAIN_CONFIG,
        maxClusters: c.max_clusters,
        maxEvictionRatio: c.max_eviction_ratio,
        maxAllowedLineLength: c.max_allowed_line_length,
      },
      owns: sharesRing(config) ? (tenant, labels) => this.owns(tenant, labels) : undefined,
      countersFor: (tenant, format) => this.metrics.drainCounters(tenant, format),
    });
  }

  /** Whether calls reach the pattern ingester (it is started and not stopped). */
  get isServing(): boolean {
    return this.serving;
  }

  push(tenant: string, streams: readonly PushStream[]): Promise<void> {
    return this.serve().push(tenant, streams);
  }

  query(tenant: string, query: PatternQuery): Promise<PatternSeries[]> {
    return this.serve().query(tenant, query);
  }

  private serve(): PatternIngester {
    if (!this.serving) throw new LogsvcError('unavailable', 'pattern ingester not running');
    return this.ingester;
  }

  onModuleInit(): void {
    this.registry.register(this);
    this.metrics.streamsGauge(() => (this.serving ? this.ingester.streamCount : 0));
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
    this.serving = true;
    const ingester = this.ingester;
    const period = this.config.pattern_ingester.flush_check_period;
    this.sweeper = setInterval(() => ingester.sweep(), period).unref();
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
    this.serving = false;
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
