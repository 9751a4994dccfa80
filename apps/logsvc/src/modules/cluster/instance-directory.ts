import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { InstanceOverview } from '@logsvc/api';
import { type Config, resolveRingConfig } from '@logsvc/config';
import { InstanceReports, createKv } from '@logsvc/ring';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { readiness } from '../../lifecycle/readiness';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, LOGGER } from '../../tokens';
import { readBuildInfo } from '../status/build-info';
import { sharesRing } from '../../cluster-mode';
import { RING_OF_COMPONENT } from './ring-names';

/** The KV key (below the store's prefix) holding every process's report. */
export const INSTANCES_KEY = 'logsvc/instances';

type Report = Omit<InstanceOverview, 'self' | 'reported' | 'rings'>;

/**
 * Every logsvc process's own status (targets, version, start time, `/ready`, `/services`, HTTP
 * address), for the admin UI's cluster overview. In cluster mode each process writes its report
 * to one key of the rings' KV store (on every service state change and every 5 s) and watches
 * that key; the single binary knows only itself. The `process-report` service: it starts right
 * after the HTTP server and stops right before it, so the report follows every other service
 * through its start and stop, and leaves the key at the end.
 */
@Injectable()
export class InstanceDirectory implements LifecycleService {
  readonly serviceName = 'process-report';
  readonly instanceId: string;
  /** Its ID in every ring it joins (the same unless one ring's ID is set on its own). */
  readonly ringIds: string[];
  private readonly startedAt = new Date().toISOString();
  private readonly version = readBuildInfo().version;
  /** The reports in the rings' KV store, in cluster mode. */
  private readonly shared: InstanceReports<Report> | undefined;
  private readonly listeners = new Set<() => void>();
  private unsubscribe: (() => void) | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'instance-directory' });
    // The ID this process has in the ring of its first component that joins one.
    const ring = components.map((c) => RING_OF_COMPONENT[c]).find((r) => r) ?? 'ingester';
    const settings = resolveRingConfig(config, ring);
    this.instanceId = settings.instanceId;
    const own = components.map((c) => RING_OF_COMPONENT[c]).filter((r) => r !== undefined);
    this.ringIds = [
      ...new Set([this.instanceId, ...own.map((r) => resolveRingConfig(config, r).instanceId)]),
    ];
    if (sharesRing(config)) {
      this.shared = new InstanceReports({
        kv: createKv(resolveRingConfig(config, 'ingester').kvstore),
        key: INSTANCES_KEY,
        self: () => this.self(),
        onPeersChange: () => this.changed(),
        onError: (err, what) => this.logger.debug({ err }, what),
      });
    }
    registry.register(this);
  }

  get clusterMode(): boolean {
    return this.shared !== undefined;
  }

  async starting(): Promise<void> {
    this.unsubscribe = this.registry.onStateChange(() => {
      this.changed();
      this.shared?.changed();
    });
    this.shared?.start();
  }

  async stopping(): Promise<void> {
    this.unsubscribe?.();
    await this.shared?.leave(this.instanceId);
  }

  /** Calls `listener` whenever this process or a peer reports a change. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** This process's report, now. */
  self(): Report {
    const { ready, message } = readiness(this.registry);
    return {
      id: this.instanceId,
      http_url: this.httpUrl(),
      targets: [...this.components],
      version: this.version,
      started_at: this.startedAt,
      ready,
      ready_message: message.trim(),
      services: this.registry.states(),
      ring_ids: this.ringIds,
      updated_at: new Date().toISOString(),
    };
  }

  /** Every reporting process, this one first (from its live state, not the KV). */
  reports(): Report[] {
    const self = this.self();
    const others = this.shared?.others(self.id) ?? [];
    return [self, ...others.sort((a, b) => a.id.localeCompare(b.id))];
  }

  /** The HTTP address of a reporting process, or undefined. */
  httpUrlOf(id: string): string | undefined {
    const found = this.reports().find((r) => r.id === id);
    return found && found.http_url !== '' ? found.http_url : undefined;
  }

  private httpUrl(): string {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    const address = server?.address() as AddressInfo | null | undefined;
    if (!address || typeof address !== 'object') return '';
    const configured = resolveRingConfig(this.config, 'ingester').instanceAddr;
    const host =
      address.address === '0.0.0.0' || address.address === '::' ? configured : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
