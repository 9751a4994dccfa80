import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { InstanceOverview } from '@logsvc/api';
import { type Config, resolveRingConfig } from '@logsvc/config';
import { CoalescedRun, type Kv, createKv } from '@logsvc/ring';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { readiness } from '../../lifecycle/readiness';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, LOGGER } from '../../tokens';
import { readBuildInfo } from '../status/build-info';
import { sharesRing } from '../../cluster-mode';
import { RING_OF_COMPONENT } from './ring-names';

/** The KV key (below the store's prefix) holding every process's report. */
export const INSTANCES_KEY = 'logsvc/instances';
/** How often a process reports even when nothing changed, so a silent one can be told apart. */
const REPORT_PERIOD_MS = 5_000;
/** Reports older than this are dropped from the key (the process is gone without leaving). */
const FORGET_AFTER_MS = 10 * 60_000;
/** Coalesces bursts of service state changes into one write. */
const CHANGE_DELAY_MS = 100;
/** How long leaving may wait for the KV store (it may be down): shutdown must not hang on it. */
const LEAVE_TIMEOUT_MS = 2_000;

/** `work`, or undefined once `ms` have passed (the work goes on in the background). */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

type Report = Omit<InstanceOverview, 'self' | 'reported' | 'rings'>;
type Reports = Record<string, Report>;

function parseReports(value: Buffer | null): Reports {
  if (value === null) return {};
  try {
    const parsed = JSON.parse(value.toString('utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Reports) : {};
  } catch {
    return {};
  }
}

/**
 * Every logsvc process's own status (targets, version, start time, `/ready`, `/services`, HTTP
 * address), for the admin UI's cluster overview. In cluster mode each process writes its report
 * to one key of the rings' KV store (on every service state change and every 5 s) and watches
 * that key; the single binary knows only itself.
 */
@Injectable()
export class InstanceDirectory implements OnApplicationBootstrap, OnModuleDestroy {
  readonly instanceId: string;
  /** Its ID in every ring it joins (the same unless one ring's ID is set on its own). */
  readonly ringIds: string[];
  private readonly startedAt = new Date().toISOString();
  private readonly version = readBuildInfo().version;
  private readonly kv: Kv | undefined;
  private peers: Reports = {};
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;
  // One write at a time (with the store down, writes must not pile up every period), and a
  // change that comes during a write is written by one more pass rather than dropped.
  private readonly publisher = new CoalescedRun(() => this.publish());
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
    if (sharesRing(config)) this.kv = createKv(resolveRingConfig(config, 'ingester').kvstore);
  }

  get clusterMode(): boolean {
    return this.kv !== undefined;
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.registry.onStateChange(() => {
      this.changed();
      this.schedulePublish();
    });
    if (!this.kv) return;
    this.unwatch = this.kv.watch(INSTANCES_KEY, (value) => {
      this.peers = parseReports(value);
      this.changed();
    });
    this.timer = setInterval(() => void this.publisher.request(), REPORT_PERIOD_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.pending);
    this.unsubscribe?.();
    this.unwatch?.();
    if (!this.kv) return;
    const kv = this.kv;
    // A write still under way would put this report back after the leave removed it.
    await within(this.publisher.idle(), LEAVE_TIMEOUT_MS);
    const leave = kv
      .cas(INSTANCES_KEY, (current) => {
        const reports = parseReports(current);
        if (!(this.instanceId in reports)) return null;
        delete reports[this.instanceId];
        return Buffer.from(JSON.stringify(reports));
      })
      .catch((err: unknown) => this.logger.debug({ err }, 'could not remove this instance'));
    await within(leave, LEAVE_TIMEOUT_MS);
    await within(
      kv.close().catch(() => {}),
      LEAVE_TIMEOUT_MS,
    );
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
    const others = Object.values(this.peers).filter((r) => r.id !== self.id);
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

  private schedulePublish(): void {
    if (!this.kv || this.closed || this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.publisher.request();
    }, CHANGE_DELAY_MS);
    this.pending.unref();
  }

  private async publish(): Promise<void> {
    if (!this.kv || this.closed) return;
    try {
      const report = this.self();
      const now = Date.now();
      await this.kv.cas(INSTANCES_KEY, (current) => {
        const reports = parseReports(current);
        for (const [id, r] of Object.entries(reports)) {
          if (now - Date.parse(r.updated_at) > FORGET_AFTER_MS) delete reports[id];
        }
        reports[report.id] = report;
        return Buffer.from(JSON.stringify(reports));
      });
    } catch (err) {
      this.logger.debug({ err }, 'could not report this instance');
    }
  }
}
