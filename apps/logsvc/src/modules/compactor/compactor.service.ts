import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import {
  ChunkMarkers,
  Compactor,
  DeleteRequestsApi,
  PassJournal,
  type DeleteRequestRecord,
  type DeleteRequestsStore,
  pendingDeleteRequests,
} from '@logsvc/compactor';
import type { Config, Overrides } from '@logsvc/config';
import type { ChunkStore } from '@logsvc/storage';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, DELETE_REQUESTS, LOGGER, OVERRIDES } from '../../tokens';
import { RingMemberService } from '../cluster/ring-member';
import { RingsService } from '../cluster/rings.service';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { CompactorMetrics } from './compactor-metrics';

/** Loki's ringKeyOfLeader: the compactor owning this key in the compactor ring runs. */
const LEADER_KEY = 0;

/**
 * Loki's ringAutoForgetUnhealthyPeriods: a compactor forgets a member unhealthy for this many
 * heartbeat timeouts, so a leader killed without leaving the ring is replaced (while it is in
 * the ring but unhealthy, no one owns key 0 and no compactor runs).
 */
const AUTO_FORGET_UNHEALTHY_PERIODS = 10;

/**
 * The compactor: joins the compactor ring (one token) and, every `compaction_interval`, when it
 * owns key 0 of the ring (so exactly one compactor of a cluster works), runs a compaction:
 * index files merged per table, retention and delete requests applied, expired chunks swept.
 * Also serves the delete API (DeleteController).
 */
@Injectable()
export class CompactorService extends RingMemberService {
  readonly serviceName = 'compactor';
  readonly api: DeleteRequestsApi;
  private readonly compactor: Compactor;

  constructor(
    @Inject(ServiceRegistry) registry: ServiceRegistry,
    @Inject(RingsService) rings: RingsService,
    @Inject(LOGGER) logger: Logger,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(OVERRIDES) private readonly overrides: Overrides,
    @Inject(CHUNK_STORE) private readonly store: ChunkStore,
    @Inject(DELETE_REQUESTS) private readonly requests: DeleteRequestsStore,
    @Inject(CompactorMetrics) private readonly metrics: CompactorMetrics,
  ) {
    super(registry, rings, 'compactor', logger.child({ component: 'compactor' }));
    const c = config.compactor;
    const deletionMode = (tenant: string) => overrides.forTenant(tenant).deletion_mode;
    this.api = new DeleteRequestsApi({
      store: requests,
      deletionMode,
      cancelPeriodMs: c.delete_request_cancel_period,
      maxIntervalMs: c.delete_max_interval,
      nowMs: () => Date.now(),
      onCreated: (tenant) => metrics.deleteRequestsReceived.inc({ user: tenant }),
    });
    const workingDirectory = c.working_directory || join(config.common.path_prefix, 'compactor');
    this.compactor = new Compactor({
      store,
      requests,
      markers: new ChunkMarkers(workingDirectory),
      journal: new PassJournal(workingDirectory),
      limits: (tenant) => overrides.forTenant(tenant),
      retentionEnabled: c.retention_enabled,
      retentionDeleteDelayMs: c.retention_delete_delay,
      deleteRequestCancelPeriodMs: c.delete_request_cancel_period,
      nowMs: () => Date.now(),
      chunkOptions: {
        encoding: config.ingester.chunk_encoding,
        blockSize: config.ingester.chunk_block_size,
      },
      smallChunks: c.compact_small_chunks ? { targetBytes: c.small_chunks_target_size } : null,
      events: metrics,
    });
  }

  protected override autoForgetUnhealthyAfterMs(): number {
    return AUTO_FORGET_UNHEALTHY_PERIODS * this.rings.settings('compactor').heartbeatTimeoutMs;
  }

  /** Whether the delete API is there: Loki registers it only with retention enabled. */
  get deletesEnabled(): boolean {
    return this.config.compactor.retention_enabled;
  }

  /** Whether this process owns the leader key of the compactor ring. */
  isLeader(): boolean {
    const watcher = this.rings.watcher('compactor');
    if (!watcher) return false;
    try {
      const set = watcher.ring().get(LEADER_KEY, 'write');
      return set.instances[0]?.id === this.rings.settings('compactor').instanceId;
    } catch {
      return false;
    }
  }

  async running(signal: AbortSignal): Promise<void> {
    const interval = Math.max(1000, this.config.compactor.compaction_interval);
    while (!signal.aborted) {
      await this.runOnce();
      // Resolves at the interval or at the abort; either way its abort listener is removed
      // (one added per run and never removed would pile up on the service's signal).
      await sleep(interval, undefined, { signal }).catch(() => {});
    }
  }

  /**
   * One compaction when this process is the leader; failures are logged and counted. Every
   * compactor, leader or not, then updates the pending delete request gauges (as Loki's
   * DeleteRequestsManager, which every compactor runs).
   */
  async runOnce(): Promise<boolean> {
    const leader = this.isLeader();
    this.metrics.running.set(leader ? 1 : 0);
    const ran = leader && (await this.compact());
    await this.updatePendingGauges();
    return ran;
  }

  /**
   * `loki_compactor_pending_delete_requests_count` and `..._oldest_pending_delete_request_age_seconds`:
   * requests of `filter-and-delete` tenants past their cancel period and not processed yet.
   */
  private async updatePendingGauges(): Promise<void> {
    if (!this.config.compactor.retention_enabled) return;
    try {
      const records: DeleteRequestRecord[] = [];
      for (const tenant of await this.store.maintenance.tenants()) {
        if (this.overrides.forTenant(tenant).deletion_mode !== 'filter-and-delete') continue;
        records.push(...(await this.requests.list(tenant)));
      }
      const pending = pendingDeleteRequests(
        records,
        Date.now(),
        this.config.compactor.delete_request_cancel_period,
      );
      this.metrics.pendingDeleteRequests.set(pending.count);
      this.metrics.oldestPendingDeleteRequestAge.set(pending.oldestAgeSeconds);
    } catch (err) {
      this.logger.error({ err }, 'failed to update the pending delete request metrics');
    }
  }

  private async compact(): Promise<boolean> {
    const started = Date.now();
    try {
      const summary = await this.compactor.run();
      const seconds = (Date.now() - started) / 1000;
      this.metrics.compactOperations.inc({ status: 'success' });
      this.metrics.compactDuration.set(seconds);
      this.metrics.compactLastSuccess.set(Date.now() / 1000);
      if (this.config.compactor.retention_enabled) {
        this.metrics.retentionOperations.inc({ status: 'success' });
        this.metrics.retentionDuration.set(seconds);
        this.metrics.retentionLastSuccess.set(Date.now() / 1000);
      }
      this.logger.info({ ...summary, seconds }, 'compaction done');
      return true;
    } catch (err) {
      this.metrics.compactOperations.inc({ status: 'failure' });
      if (this.config.compactor.retention_enabled) {
        this.metrics.retentionOperations.inc({ status: 'failure' });
      }
      this.logger.error({ err }, 'compaction failed');
      return false;
    }
  }
}
