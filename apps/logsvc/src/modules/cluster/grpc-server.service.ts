import type { Config } from '@logsvc/config';
import { type GrpcService, type RunningGrpcServer, startGrpcServer } from '@logsvc/rpc';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { serverTls } from '../../rpc-client-options';
import { CONFIG, LOGGER } from '../../tokens';
import { type GrpcHandlerSource, GrpcHandlers } from './grpc-handlers';

/**
 * The gRPC server (`server.grpc_listen_port`) through which other processes reach this one's
 * components. It serves what the loaded component modules hand it (their `@GrpcHandlers()`
 * providers: ingester, index gateway, pattern ingester, ruler, query queue, frontend's HTTP
 * routes), and runs only when one of them serves something: the single binary on its in-memory
 * ring listens on HTTP only.
 */
@Injectable()
export class GrpcServerService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'grpc-server';
  private handle: RunningGrpcServer | undefined;
  private services: readonly GrpcService[] = [];
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'grpc-server' });
  }

  onModuleInit(): void {
    this.services = this.discovery
      .getProviders({ metadataKey: GrpcHandlers.KEY })
      .flatMap((w) => (w.instance as GrpcHandlerSource).grpcServices(this.logger));
    if (this.services.length > 0) this.registry.register(this);
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
      services: this.services,
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
