import { type Config, type RingMemberConfig, resolveRingConfig } from '@logsvc/config';
import { InMemoryKv, type Kv, RingWatcher, createKv } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, LOGGER } from '../../tokens';
import { queryRouting } from './query-routing';
import { RING_OF_COMPONENT, type RingName, ringsReadBy } from './ring-names';

/**
 * The rings this process reads or joins: their KV stores and a watcher per ring, started before
 * any component (the `rings` service). Each ring is watched, never polled: a member's change
 * reaches every process within one KV watch round trip.
 */
@Injectable()
export class RingsService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'ring';
  private readonly watchers = new Map<RingName, RingWatcher>();
  private readonly stores = new Map<RingName, Kv>();
  // `inmemory` rings are this server's own (tests run several servers in one process).
  private readonly memory = new InMemoryKv();
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'rings' });
  }

  onModuleInit(): void {
    if (this.names().length > 0) this.registry.register(this);
  }

  /** Every ring this process joins or reads. */
  names(): RingName[] {
    const out = new Set<RingName>();
    for (const c of this.components) {
      const own = RING_OF_COMPONENT[c];
      if (own) out.add(own);
      for (const r of ringsReadBy(c, this.config)) out.add(r);
    }
    // The pattern ring exists only while pattern ingesters are on.
    if (!this.config.pattern_ingester.enabled) out.delete('pattern-ingester');
    // The scheduler ring only with `query_scheduler.use_scheduler_ring`.
    if (queryRouting(this.config, this.components).usesSchedulerRing) out.add('scheduler');
    return [...out];
  }

  /** The resolved settings of a ring (KV store, key, timeouts, this instance's identity). */
  settings(name: RingName): RingMemberConfig {
    return resolveRingConfig(this.config, name);
  }

  async starting(): Promise<void> {
    for (const name of this.names()) {
      const settings = this.settings(name);
      const kv = settings.kvstore.store === 'inmemory' ? this.memory : createKv(settings.kvstore);
      this.stores.set(name, kv);
      const watcher = new RingWatcher({
        kv,
        key: settings.key,
        replicationFactor: settings.replicationFactor,
        heartbeatTimeoutMs: settings.heartbeatTimeoutMs,
        zoneAwarenessEnabled: settings.zoneAwarenessEnabled,
      });
      await watcher.start();
      this.watchers.set(name, watcher);
      this.logger.info(
        { ring: name, store: settings.kvstore.store, key: settings.key },
        'watching ring',
      );
    }
  }

  async stopping(): Promise<void> {
    for (const w of this.watchers.values()) w.stop();
    this.watchers.clear();
    for (const kv of new Set(this.stores.values())) await kv.close().catch(() => {});
    this.stores.clear();
  }

  /** The KV store of a ring; throws before the service started or for a ring not used here. */
  kv(name: RingName): Kv {
    const kv = this.stores.get(name);
    if (!kv) throw new Error(`ring ${name} is not used by this process`);
    return kv;
  }

  /** The watcher of a ring, or undefined when this process does not use it. */
  watcher(name: RingName): RingWatcher | undefined {
    return this.watchers.get(name);
  }
}
