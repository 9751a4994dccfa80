import { join } from 'node:path';
import { type ChunkFormatName, recodeChunk } from '@logsvc/chunk';
import type { Config, Overrides } from '@logsvc/config';
import { LogsvcError } from '@logsvc/errors';
import { type FlushedChunk, Ingester, type IngesterConfig, ShutdownMarker } from '@logsvc/ingester';
import { Lifecycler } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ChunkStore } from '@logsvc/storage';
import { HttpMetrics } from '../../http/http-metrics';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, LOGGER } from '../../tokens';
import { sharesRing } from '../../cluster-mode';
import { GrpcServerService } from '../cluster/grpc-server.service';
import { RingsService } from '../cluster/rings.service';
import { registerIngesterMetrics } from './ingester-metrics';

/** The ingester is not Running (still replaying, or stopping/stopped): retry elsewhere or later. */
export class IngesterUnavailableError extends LogsvcError {
  constructor(message: string) {
    super('unavailable', message);
  }
}

/** `/flush` or `/ingester/shutdown` could not write the ingester's chunks out. */
export class IngesterFlushError extends LogsvcError {
  constructor(what: 'flush' | 'shutdown', cause: unknown) {
    const text = cause instanceof Error ? cause.message : String(cause);
    super('internal', `${what} failed: ${text}`, { cause });
  }
}

/** `ingester.wal.dir`, or `<common.path_prefix>/wal` when empty. */
export function walDirectory(config: Config): string {
  return config.ingester.wal.dir || join(config.common.path_prefix, 'wal');
}

/** The process's Ingester from config (started by IngesterService), flushing to `store`. */
export function createIngester(
  config: Config,
  overrides: Overrides,
  store: ChunkStore,
  logger: Logger,
): Ingester {
  const cfg = config.ingester;
  const ingesterConfig: IngesterConfig = {
    ...cfg,
    wal: { ...cfg.wal, dir: walDirectory(config) },
  };
  return new Ingester({
    config: ingesterConfig,
    sink: {
      putChunks: async (tenant, chunks) => {
        await store.putChunks(tenant, chunksInPeriodFormat(store, chunks));
      },
    },
    limits: (tenant) => overrides.forTenant(tenant),
    logger: logger.child({ component: 'ingester' }),
  });
}

/**
 * The ingester component: starts the module's Ingester (ingesterProvider), replaying its WAL
 * while Starting (so `/ready` answers 503 until replay is done; LocalIngesterClient serves it
 * from then on), and shuts it down on SIGTERM or on `/ingester/shutdown`. Its state is the ServiceRegistry's: the HTTP
 * operations answer only while the registry has it Running.
 *
 * Flush on shutdown, as Loki decides it: an explicit `/ingester/shutdown?flush=` wins; else
 * prepare_shutdown set → flush; else flush when the WAL is off or `wal.flush_on_shutdown`
 * (with the WAL on, unflushed data is replayed at the next start instead).
 */
@Injectable()
export class IngesterService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'ingester';
  private lifecycler: Lifecycler | undefined;
  private started: Promise<void> | undefined;
  private prepared = false;
  private requestedFlush: boolean | undefined;
  private readonly stopped: Promise<void>;
  private settleStopped: (err?: unknown) => void = () => {};
  private readonly marker: ShutdownMarker;
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) logger: Logger,
    @Inject(Ingester) private readonly ingester: Ingester,
    @Inject(HttpMetrics) private readonly metrics: HttpMetrics,
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(GrpcServerService) private readonly grpc: GrpcServerService,
  ) {
    this.logger = logger.child({ component: 'ingester' });
    this.marker = ShutdownMarker.under(config.common.path_prefix);
    this.stopped = new Promise<void>((resolve, reject) => {
      this.settleStopped = (err) => (err === undefined ? resolve() : reject(err));
    });
    // Awaited only by /ingester/shutdown; a failed stop is also logged by the registry.
    this.stopped.catch(() => {});
  }

  onModuleInit(): void {
    this.registry.register(this);
    // Only a shared ring gates /ready: the single binary is ready once its WAL is replayed.
    if (sharesRing(this.config)) {
      this.registry.addReadinessCheck(() => {
        const reason = this.lifecycler ? this.lifecycler.checkReady() : 'not in the ring yet';
        return reason === null ? null : `Ingester not ready: ${reason}`;
      });
    }
    registerIngesterMetrics(
      this.metrics.registry,
      () => (this.started === undefined ? undefined : this.ingester.metrics()),
      () => this.prepared,
    );
  }

  async starting(): Promise<void> {
    this.started = this.start();
    await this.started;
  }

  private async start(): Promise<void> {
    const replay = await this.ingester.start();
    const dir = walDirectory(this.config);
    if (replay) this.logger.info({ dir, ...replay }, 'WAL replayed');
    this.prepared = await this.marker.exists();
    if (this.prepared)
      this.logger.info({ path: this.marker.path }, 'prepare-shutdown marker found');
    await this.joinRing();
  }

  /**
   * Registers this ingester in its ring (JOINING → ACTIVE) once it can take pushes, with the
   * gRPC address peers reach it at; its tokens come back from the ring entry or the token file
   * after a restart.
   */
  private async joinRing(): Promise<void> {
    const settings = this.rings.settings('ingester');
    const port = this.grpc.port ?? settings.instancePort;
    const shared = sharesRing(this.config);
    this.lifecycler = new Lifecycler({
      kv: this.rings.kv('ingester'),
      key: settings.key,
      id: settings.instanceId,
      addr: `${settings.instanceAddr}:${port}`,
      zone: settings.zone,
      numTokens: settings.numTokens,
      ...(settings.tokensFilePath === '' ? {} : { tokensFilePath: settings.tokensFilePath }),
      heartbeatPeriodMs: settings.heartbeatPeriodMs,
      heartbeatTimeoutMs: settings.heartbeatTimeoutMs,
      joinAfterMs: shared ? settings.joinAfterMs : 0,
      minReadyDurationMs: shared ? settings.minReadyDurationMs : 0,
      finalSleepMs: shared ? settings.finalSleepMs : 0,
      unregisterOnShutdown: settings.unregisterOnShutdown || this.prepared,
      readinessCheckRingHealth: settings.readinessCheckRingHealth,
      logger: this.logger,
    });
    await this.lifecycler.start();
    this.logger.info(
      { id: settings.instanceId, addr: `${settings.instanceAddr}:${port}` },
      'joined the ingester ring',
    );
  }

  async stopping(): Promise<void> {
    // A SIGTERM during WAL replay: let the replay finish, so shutdown sees a whole ingester.
    await this.started?.catch(() => {});
    const wal = this.config.ingester.wal;
    const flush = this.requestedFlush ?? (this.prepared || !wal.enabled || wal.flush_on_shutdown);
    try {
      this.logger.info({ flush }, 'ingester shutting down');
      const ingester = this.started === undefined ? undefined : this.ingester;
      // The final checkpoint gets what the graceful shutdown period leaves (main.ts exits then).
      const budgetMs = this.config.server.graceful_shutdown_timeout;
      const shutdown = async (): Promise<void> => {
        await ingester?.shutdown({ flush, budgetMs });
      };
      // In the ring: LEAVING while flushing, then out of the ring (as Loki's lifecycler).
      if (this.lifecycler) await this.lifecycler.stop({ beforeLeave: shutdown });
      else await shutdown();
      // As Loki: the marker only applies to the shutdown it prepared.
      await this.marker.remove();
      this.prepared = false;
      this.settleStopped();
    } catch (err) {
      this.settleStopped(err);
      throw err;
    }
  }

  /** POST /flush: closes every head chunk and writes all chunks to the object store. */
  async flush(): Promise<void> {
    const ingester = this.runningIngester();
    try {
      await ingester.flushAll();
      // Flushed data need not be replayed after a crash: a checkpoint moves replay past it.
      await ingester.checkpoint();
    } catch (err) {
      throw new IngesterFlushError('flush', err);
    }
  }

  /** `/ingester/prepare_shutdown` state: set means the next SIGTERM flushes. */
  async prepareShutdown(action: 'get' | 'set' | 'unset'): Promise<boolean> {
    this.runningIngester();
    if (action === 'set') {
      await this.marker.create();
      this.prepared = true;
      this.lifecycler?.setUnregisterOnShutdown(true);
      this.logger.info({ path: this.marker.path }, 'prepared for shutdown');
    } else if (action === 'unset') {
      await this.marker.remove();
      this.prepared = false;
      this.lifecycler?.setUnregisterOnShutdown(
        this.rings.settings('ingester').unregisterOnShutdown,
      );
      this.logger.info('shutdown preparation removed');
    }
    return this.prepared;
  }

  /**
   * `/ingester/shutdown`: stops this service (flushing unless `flush` is false) and resolves
   * once it is Terminated. Rejects with IngesterFlushError if flushing failed.
   */
  async shutdown(options: { flush: boolean }): Promise<void> {
    this.runningIngester();
    this.requestedFlush = options.flush;
    // The registry has the service Stopping from here on: a second request gets 503, as in Loki.
    void this.registry.stopService(this.serviceName);
    try {
      await this.stopped;
    } catch (err) {
      throw new IngesterFlushError('shutdown', err);
    }
  }

  private runningIngester(): Ingester {
    const state = this.registry.stateOf(this.serviceName);
    if (state !== 'Running') {
      throw new IngesterUnavailableError(
        state === 'New' || state === 'Starting'
          ? 'Ingester is starting (replaying the WAL).'
          : 'Ingester is stopping or already stopped.',
      );
    }
    return this.ingester;
  }
}

/**
 * The ingester's chunks (row format) in the chunk format of their schema period: a
 * `chunk_format: columnar` period gets them re-encoded column by column.
 */
function chunksInPeriodFormat(store: ChunkStore, chunks: FlushedChunk[]): FlushedChunk[] {
  return chunks.map((c) => {
    const format = store.chunkFormatAt(c.fromNs) as ChunkFormatName;
    return format === 'blocks' ? c : { ...c, data: recodeChunk(c.data, format) };
  });
}
