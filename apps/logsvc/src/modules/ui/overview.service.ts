import type { ClusterOverview, InstanceOverview, InstanceRingMembership } from '@logsvc/api';
import { ringStatus } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { InstanceDirectory } from '../cluster/instance-directory';
import { RingsService } from '../cluster/rings.service';

/** Heartbeats age and members turn unhealthy without any change: a fresh overview this often. */
const REFRESH_MS = 5_000;
/** Coalesces bursts of changes (a ring and a report changing together) into one message. */
const CHANGE_DELAY_MS = 100;

/**
 * The `ui` service: the cluster overview the admin UI shows, made from this process's own
 * state, the reports of its peers (InstanceDirectory) and the members of every ring it watches;
 * listeners hear of every change while the service runs.
 */
@Injectable()
export class OverviewService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'ui';
  private readonly listeners = new Set<(overview: ClusterOverview) => void>();
  private readonly unsubscribes: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(InstanceDirectory) private readonly directory: InstanceDirectory,
    @Inject(RingsService) private readonly rings: RingsService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
    // Service state changes are heard from the start, so a client sees the start-up itself.
    this.unsubscribes.push(this.directory.onChange(() => this.changed()));
  }

  async starting(): Promise<void> {
    for (const name of this.rings.names()) {
      const watcher = this.rings.watcher(name);
      if (watcher) this.unsubscribes.push(watcher.onChange(() => this.changed()));
    }
    this.timer = setInterval(() => this.emit(), REFRESH_MS);
    this.timer.unref();
  }

  async stopping(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.pending);
    this.pending = undefined;
  }

  /** Calls `listener` with each new overview; returns a function that stops it. */
  subscribe(listener: (overview: ClusterOverview) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every instance: the reporting processes first (this one first), then ring-only members. */
  overview(): ClusterOverview {
    const now = Date.now();
    const memberships = new Map<string, InstanceRingMembership[]>();
    for (const ring of this.rings.names()) {
      const watcher = this.rings.watcher(ring);
      if (!watcher) continue;
      const { heartbeatTimeoutMs } = this.rings.settings(ring);
      for (const s of ringStatus(watcher.desc(), { now, heartbeatTimeoutMs }).shards) {
        const list = memberships.get(s.id) ?? [];
        list.push({ ring, state: s.state, address: s.address, zone: s.zone, healthy: s.healthy });
        memberships.set(s.id, list);
      }
    }
    // A process is one instance under every ID it has in a ring: no phantom row for the others.
    const claimed = new Set<string>();
    const instances: InstanceOverview[] = this.directory.reports().map((r) => {
      const ids = [...new Set([r.id, ...(r.ring_ids ?? [])])];
      for (const id of ids) claimed.add(id);
      return {
        ...r,
        self: r.id === this.directory.instanceId,
        reported: true,
        rings: ids.flatMap((id) => memberships.get(id) ?? []),
      };
    });
    for (const [id, rings] of memberships) {
      if (claimed.has(id)) continue;
      instances.push({
        id,
        self: false,
        reported: false,
        http_url: '',
        targets: [],
        version: '',
        started_at: '',
        ready: false,
        ready_message: '',
        services: [],
        updated_at: '',
        rings,
      });
    }
    return {
      now: new Date(now).toISOString(),
      mode: this.directory.clusterMode ? 'cluster' : 'single-binary',
      instances,
    };
  }

  private changed(): void {
    if (this.pending || this.listeners.size === 0) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.emit();
    }, CHANGE_DELAY_MS);
    this.pending.unref();
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const overview = this.overview();
    for (const listener of this.listeners) listener(overview);
  }
}
