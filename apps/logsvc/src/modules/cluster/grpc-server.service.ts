import type { Config } from '@logsvc/config';
import { LocalIngesterClient } from '@logsvc/ingester';
import { type HttpHandler, type RunningGrpcServer, startGrpcServer } from '@logsvc/rpc';
import type { ChunkStore } from '@logsvc/storage';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, LOGGER } from '../../tokens';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { routeExecutor } from '../../http/route-executor';
import { sharesRing } from './cluster-mode';
import { LocalJobQueue } from './local-job-queue';
import { LocalPatternIngester } from './local-pattern-ingester';
import { LocalRuler } from './local-ruler';
import { serverTls } from './rpc-client-options';

/**
 * The gRPC server (`server.grpc_listen_port`) through which other processes reach this one's
 * ingester, index gateway, pattern ingester, ruler, query queue and (for rulers in remote
 * evaluation mode) query frontend. Runs only when a peer can need it: with a shared ring, or for an
 * index gateway; the single binary on its in-memory ring listens on HTTP only.
 */
@Injectable()
export class GrpcServerService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'grpc-server';
  private handle: RunningGrpcServer | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(LocalIngesterClient) private readonly ingester: LocalIngesterClient,
    @Inject(CHUNK_STORE) private readonly store: ChunkStore,
    @Inject(LocalPatternIngester) private readonly patterns: LocalPatternIngester,
    @Inject(LocalRuler) private readonly ruler: LocalRuler,
    @Inject(LocalJobQueue) private readonly jobs: LocalJobQueue,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'grpc-server' });
  }

  private get servesIngester(): boolean {
    return this.components.includes('ingester') && sharesRing(this.config);
  }

  private get servesPatternIngester(): boolean {
    return this.components.includes('pattern-ingester') && sharesRing(this.config);
  }

  /** Other rulers ask it for its groups (`/prometheus/api/v1/rules` of a cluster). */
  private get servesRuler(): boolean {
    return this.components.includes('ruler') && sharesRing(this.config);
  }

  /** Querier workers of other processes pull from this process's queue. */
  private get servesJobQueue(): boolean {
    return this.jobs.dispatcher !== undefined && sharesRing(this.config);
  }

  /** Frontends of other processes submit to this process's scheduler. */
  private get servesScheduler(): boolean {
    return this.servesJobQueue && this.components.includes('query-scheduler');
  }

  /** Rulers in remote evaluation mode send their queries here (`httpgrpc.HTTP/Handle`). */
  private get servesHttp(): boolean {
    return this.components.includes('query-frontend') && sharesRing(this.config);
  }

  /** This process's HTTP routes, for `servesHttp`; set before the server is ready. */
  private http: HttpHandler | undefined;

  private get servesIndexGateway(): boolean {
    return this.components.includes('index-gateway');
  }

  onModuleInit(): void {
    if (
      this.servesIngester ||
      this.servesIndexGateway ||
      this.servesPatternIngester ||
      this.servesRuler ||
      this.servesJobQueue ||
      this.servesHttp
    ) {
      this.registry.register(this);
    }
    if (this.servesHttp) {
      const fastify = this.adapterHost.httpAdapter.getInstance() as unknown as FastifyInstance;
      this.http = routeExecutor(fastify);
    }
  }

  /** The port it listens on, once started (the configured one, or the one picked for 0). */
  get port(): number | undefined {
    return this.handle?.port;
  }

  async starting(): Promise<void> {
    const server = this.config.server;
    const tls = serverTls(server.grpc_tls_config);
    this.handle = await startGrpcServer({
      host: server.grpc_listen_address === '' ? '0.0.0.0' : server.grpc_listen_address,
      port: server.grpc_listen_port,
      maxRecvMsgSize: server.grpc_server_max_recv_msg_size,
      maxSendMsgSize: server.grpc_server_max_send_msg_size,
      maxConcurrentStreams: server.grpc_server_max_concurrent_streams,
      ...(tls ? { tls } : {}),
      ...(this.servesIngester ? { ingester: this.ingester } : {}),
      ...(this.servesIndexGateway ? { indexGateway: this.store } : {}),
      ...(this.servesPatternIngester ? { patternIngester: this.patterns } : {}),
      ...(this.servesRuler ? { ruler: this.ruler } : {}),
      ...(this.servesJobQueue ? { jobDispatcher: this.jobs.dispatcher } : {}),
      ...(this.servesScheduler ? { schedulerQueue: this.jobs.dispatcher } : {}),
      ...(this.http ? { httpHandler: this.http } : {}),
      logger: this.logger,
    });
    this.logger.info(
      {
        port: this.handle.port,
        tls: tls === undefined ? 'off' : tls.requireClientCert ? 'mutual' : 'on',
      },
      'gRPC server listening',
    );
  }

  async stopping(): Promise<void> {
    await this.handle?.stop(this.config.server.graceful_shutdown_timeout);
    this.handle = undefined;
  }
}
