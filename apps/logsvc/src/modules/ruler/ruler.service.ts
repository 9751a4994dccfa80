import type { Config, Overrides } from '@logsvc/config';
import type { Querier } from '@logsvc/querier';
import { CoalescedRun, type Lifecycler } from '@logsvc/ring';
import {
  AlertmanagerNotifier,
  RemoteWriter,
  RuleManager,
  SYSTEM_CLOCK,
  clusterRuleGroups,
  groupsOwnedInRing,
  parseModelDuration,
  ringMembership,
  rulesResponse,
  withJitter,
  type OwnedGroup,
  type RuleStore,
  type RulerMetrics,
} from '@logsvc/ruler';
import type { RuleGroupJson } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { ClientPool, GrpcRulerClient, type RulesCallRequest } from '@logsvc/rpc';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, LOGGER, OVERRIDES } from '../../tokens';
import { sharesRing } from '../../cluster-mode';
import { GrpcServerService } from '../cluster/grpc-server.service';
import { rpcClientOptions } from '../../rpc-client-options';
import { memberLifecycler } from '../cluster/ring-member';
import { RingsService } from '../cluster/rings.service';
import { RULER_METRICS } from './ruler-metrics.provider';
import { RULER_QUERIER, querierQueryFn } from './ruler-query';
import { remoteEvaluation } from './remote-evaluation';
import { RULE_STORE } from './rule-store.provider';

/** Loki's ruler checks its ring for changes this often (RingCheckPeriod). */
const RING_CHECK_MS = 5_000;
/** Loki's ringAutoForgetUnhealthyPeriods: rulers silent this many heartbeat timeouts go. */
const AUTO_FORGET_PERIODS = 2;

/**
 * The ruler component: polls the rule store every `poll_interval`, keeps the groups it owns
 * (all of them, or its share of the ruler ring in a cluster) running, sends alerts to
 * Alertmanager and recorded samples to the remote-write clients.
 */
@Injectable()
export class RulerService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'ruler';
  readonly manager: RuleManager;
  private readonly notifier: AlertmanagerNotifier;
  private readonly writer: RemoteWriter;
  private lifecycler: Lifecycler | undefined;
  private poller: NodeJS.Timeout | undefined;
  private ringChecker: NodeJS.Timeout | undefined;
  private lastRing = '';
  /** Whether other rulers may ask it for its groups (from its start, in a ring, until it stops). */
  private serving = false;
  private readonly syncs = new CoalescedRun(async () => {
    try {
      await this.manager.sync(await this.ownedGroups());
    } catch (err) {
      this.logger.error({ err }, 'unable to sync rule groups');
    }
  });
  private readonly logger: Logger;
  private readonly peers: ClientPool<GrpcRulerClient>;
  /** The query frontends' client, in remote evaluation mode. */
  private readonly remote: ReturnType<typeof remoteEvaluation> | undefined;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(OVERRIDES) private readonly overrides: Overrides,
    @Inject(RULE_STORE) private readonly store: RuleStore,
    @Inject(RULER_QUERIER) querier: Querier,
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(RULER_METRICS) metrics: RulerMetrics,
    @Inject(GrpcServerService) private readonly grpc: GrpcServerService,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'ruler' });
    this.peers = new ClientPool(
      (addr) => new GrpcRulerClient(addr, rpcClientOptions(config, config.ruler.ruler_client)),
    );
    const c = config.ruler;
    const onError = (message: string) => this.logger.warn(message);
    this.notifier = new AlertmanagerNotifier({
      alertmanagers: c.alertmanager_url
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
      queueCapacity: c.notification_queue_capacity,
      timeoutMs: c.notification_timeout,
      externalURL: c.external_url,
      datasourceUID: c.datasource_uid,
      metrics,
      onError,
    });
    this.writer = new RemoteWriter({
      clients: c.remote_write.enabled
        ? Object.entries(c.remote_write.clients).map(([id, client]) => ({
            name: client.name ?? id,
            url: client.url,
            headers: client.headers ?? {},
            timeoutMs: parseModelDuration(client.remote_timeout ?? '30s') ?? 30_000,
          }))
        : [],
      addOrgIdHeader: c.remote_write.add_org_id_header,
      metrics,
      onError,
    });
    this.remote =
      c.evaluation.mode === 'remote' ? remoteEvaluation(config, overrides, metrics) : undefined;
    const query = withJitter(
      this.remote?.query ?? querierQueryFn(querier, 60_000),
      c.evaluation.max_jitter,
      SYSTEM_CLOCK,
    );
    this.manager = new RuleManager({
      clock: SYSTEM_CLOCK,
      now: () => Date.now(),
      defaultIntervalMs: c.evaluation_interval,
      resendDelayMs: c.resend_delay,
      forGracePeriodMs: c.for_grace_period,
      query,
      notify: (tenant, expr, alerts) => this.notifier.send(tenant, expr, alerts),
      append: (tenant, series) => this.writer.write(tenant, series),
      metrics,
      alertContext: { externalLabels: {}, externalURL: c.external_url },
    });
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async starting(): Promise<void> {
    if (sharesRing(this.config) || this.config.ruler.enable_sharding) {
      this.serving = true;
      // Loki's ruler forgets a ruler silent for twice the heartbeat timeout (dskit's
      // AutoForgetDelegate): with one owner per group, that is what moves a dead ruler's groups.
      const { heartbeatTimeoutMs } = this.rings.settings('ruler');
      this.lifecycler = memberLifecycler(
        this.rings,
        'ruler',
        this.grpc.port,
        this.logger,
        heartbeatTimeoutMs * AUTO_FORGET_PERIODS,
      );
      await this.lifecycler.start();
      this.ringChecker = setInterval(() => this.checkRing(), RING_CHECK_MS).unref();
    }
    await this.sync();
    this.poller = setInterval(() => void this.sync(), this.config.ruler.poll_interval).unref();
  }

  async stopping(): Promise<void> {
    clearInterval(this.poller);
    clearInterval(this.ringChecker);
    await this.syncs.idle();
    await this.manager.stop();
    await this.lifecycler?.stop();
    this.serving = false;
    this.peers.closeAll();
    this.remote?.close();
    await this.notifier.flush();
  }

  /** Reloads the rule store and starts, updates or stops groups; concurrent calls coalesce. */
  sync(): Promise<void> {
    return this.syncs.request();
  }

  private async ownedGroups(): Promise<OwnedGroup[]> {
    const all: OwnedGroup[] = [];
    for (const tenant of await this.store.listTenants()) {
      try {
        for (const [namespace, groups] of await this.store.listNamespaces(tenant))
          for (const group of groups) all.push({ tenant, namespace, group });
      } catch (err) {
        this.logger.error({ err, tenant }, 'unable to load the rule groups of a tenant');
      }
    }
    const watcher = this.rings.watcher('ruler');
    const id = this.lifecycler?.id;
    if (!watcher || id === undefined) return all;
    return groupsOwnedInRing(all, id, watcher.ring());
  }

  /** Re-shards when the ring's members or their health changed (a ruler joined or left). */
  private checkRing(): void {
    const watcher = this.rings.watcher('ruler');
    if (!watcher) return;
    const view = ringMembership(watcher.ring());
    if (view === this.lastRing) return;
    this.lastRing = view;
    void this.sync();
  }

  /** What other rulers get over gRPC: its groups; `unavailable` while it does not serve. */
  async peerRules(tenant: string, request: RulesCallRequest): Promise<RuleGroupJson[]> {
    if (!this.serving) throw new LogsvcError('unavailable', 'ruler not running');
    return this.rules(tenant, request);
  }

  /** The groups this ruler evaluates for `tenant`, as Prometheus' JSON, filtered. */
  rules(tenant: string, request: RulesCallRequest): RuleGroupJson[] {
    return rulesResponse(this.manager.groups(tenant), request).data?.groups ?? [];
  }

  /**
   * The groups of every ruler of the cluster (Loki's GetRules, `clusterRuleGroups`): this
   * ruler's own and each other healthy ruler's over gRPC (`ruler.Ruler/Rules`). Without a
   * shared ruler ring, this ruler's own groups.
   */
  async clusterRules(tenant: string, request: RulesCallRequest): Promise<RuleGroupJson[]> {
    const watcher = this.rings.watcher('ruler');
    const self = this.lifecycler?.id;
    if (!watcher || self === undefined || !sharesRing(this.config))
      return this.rules(tenant, request);
    return clusterRuleGroups(this.rules(tenant, request), self, watcher.ring(), (peer) =>
      this.peers.get(peer.addr).rules(tenant, request),
    );
  }

  /** Per-tenant limits of the rules API. */
  limits(tenant: string) {
    const l = this.overrides.forTenant(tenant);
    return {
      maxRulesPerRuleGroup: l.ruler_max_rules_per_rule_group,
      maxRuleGroupsPerTenant: l.ruler_max_rule_groups_per_tenant,
    };
  }
}
