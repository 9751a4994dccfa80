import { hostname } from 'node:os';
import type { Config } from '@logsvc/config';
import { LocalWorkers } from '@logsvc/frontend';
import {
  Querier,
  type QueryJobRunner,
  type QueryWorkerPool,
  ReadApi,
  queryJobRunner,
  runPooledQuery,
} from '@logsvc/querier';
import { jobQueryText } from '@logsvc/query-codec';
import { QuerierWorker } from '@logsvc/rpc';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, LOGGER } from '../../tokens';
import { LocalJobQueue } from '../query-queue/local-job-queue';
import { queryRouting, type WorkerSource } from '../cluster/query-routing';
import { RingsService } from '../cluster/rings.service';
import { schedulerAddresses } from '../cluster/scheduler-ring';
import { clientTls } from '../../rpc-client-options';
import { QUERY_WORKER_POOL } from './query-worker-pool.provider';

/**
 * The querier's workers (Loki's querier worker): `querier.max_concurrent` connections that
 * pull jobs from the queue of this process, or over gRPC from `frontend_worker.scheduler_address`,
 * the schedulers of the scheduler ring, or `frontend_worker.frontend_address`, and run each on
 * this process's querier library (`queryJobRunner`: sub-queries as the frontend made them, read
 * requests through the ReadApi the HTTP routes use). Registered only in a cluster where a
 * source is configured.
 */
@Injectable()
export class QuerierWorkerService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'querier-worker';
  private readonly source: WorkerSource;
  private readonly logger: Logger;
  private stopWorkers: (() => Promise<void>) | undefined;
  private unwatch: (() => void) | undefined;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(COMPONENTS) components: readonly Component[],
    @Inject(Querier) private readonly querier: Querier,
    @Inject(QUERY_WORKER_POOL) private readonly pool: QueryWorkerPool | null,
    @Inject(ReadApi) private readonly readApi: ReadApi,
    @Inject(LocalJobQueue) private readonly jobs: LocalJobQueue,
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.source = queryRouting(config, components).workerSource;
    this.logger = logger.child({ component: 'querier-worker' });
  }

  private execute: QueryJobRunner | undefined;

  onModuleInit(): void {
    if (this.source === 'none') return;
    this.execute = queryJobRunner({
      runQuery: (request) => runPooledQuery(this.querier, this.pool, request),
      read: this.readApi,
      onError: (err, job) =>
        this.logger.error({ err, kind: job.kind, query: jobQueryText(job) }, 'job failed'),
    });
    this.registry.register(this);
  }

  async starting(): Promise<void> {
    const execute = this.execute;
    if (execute === undefined) return;
    const querierId = this.config.frontend_worker.id || `${hostname()}-${process.pid}`;
    const concurrency = this.config.querier.max_concurrent;
    const dispatcher = this.jobs.dispatcher;
    this.logger.info({ querierId, source: this.source, concurrency }, 'querier worker starting');
    if (this.source === 'local' && dispatcher !== undefined) {
      const workers = new LocalWorkers(dispatcher, {
        querierId,
        concurrency,
        execute,
        onError: (err) => this.logger.warn({ err }, 'job failed'),
      });
      workers.start();
      this.stopWorkers = () => workers.stop();
      return;
    }
    const tls = clientTls(this.config.frontend_worker.grpc_client_config);
    const worker = new QuerierWorker({
      querierId,
      maxConcurrent: concurrency,
      peer: this.source === 'frontend-address' ? 'frontend' : 'scheduler',
      execute,
      logger: this.logger,
      maxRecvMsgSize: this.config.server.grpc_server_max_recv_msg_size,
      maxSendMsgSize: this.config.server.grpc_server_max_send_msg_size,
      ...(tls ? { tls } : {}),
    });
    this.stopWorkers = () => worker.stop();
    if (this.source === 'scheduler-ring') {
      worker.setAddresses(schedulerAddresses(this.rings));
      this.unwatch = this.rings
        .watcher('scheduler')
        ?.onChange(() => worker.setAddresses(schedulerAddresses(this.rings)));
      return;
    }
    const addresses = this.config.frontend_worker;
    worker.setAddresses([
      this.source === 'scheduler-address'
        ? addresses.scheduler_address
        : addresses.frontend_address,
    ]);
  }

  async stopping(): Promise<void> {
    this.unwatch?.();
    await this.stopWorkers?.();
  }
}
