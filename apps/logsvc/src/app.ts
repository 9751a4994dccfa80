import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Config } from '@logsvc/config';
import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { MAX_HEADER_BYTES, answerClientError } from './http/client-errors';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { registerBodyParsers } from './http/body-parsers';
import { LokiExceptionFilter } from './http/exception-filter';
import { installResponseCompression } from './http/compress-responses';
import { installSlowQueryLog } from './http/slow-queries';
import { DeleteProxyModule } from './modules/compactor/delete-proxy.module';
import { HttpMetrics, installRequestHooks } from './http/http-metrics';
import { SharedPortWsAdapter } from './http/shared-port-ws-adapter';
import { installTenancy, tenancyOf } from './http/tenancy';
import { ServiceRegistry } from './lifecycle/service-registry';
import { NestPinoLogger, createLogger } from './logging/logger';
import { ClientsModule } from './modules/clients/clients.module';
import { ClusterModule } from './modules/cluster/cluster.module';
import { sharesRing } from './cluster-mode';
import { COMPONENT_MODULES } from './modules/component-modules';
import { CoreModule } from './modules/core/core.module';
import { QueryApiModule } from './modules/query-api/query-api.module';
import { QueryQueueModule } from './modules/query-queue/query-queue.module';
import { StatusModule } from './modules/status/status.module';
import type { StartupFiles } from './startup-files';
import { type Component, MODULE_DEPENDENCIES, SERVICE_ORDER, resolveTarget } from './targets';

export type { StartupFiles } from './startup-files';

export interface ServerOptions {
  /** Where log lines go; stderr by default. */
  logDestination?: DestinationStream;
  /** More modules to load besides the target's (tests use this to mount probe controllers). */
  extraModules?: Type<unknown>[];
  /** None by default: main.ts passes what it loaded. */
  startupFiles?: StartupFiles;
}

/** A built server: start() listens and starts every service, stop() shuts down gracefully. */
export interface LogsvcServer {
  readonly app: NestFastifyApplication;
  readonly registry: ServiceRegistry;
  readonly logger: Logger;
  readonly components: readonly Component[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** `http://host:port` once listening. */
  url(): string;
}

@Module({})
class AppModule {}

/**
 * Builds the Nest application for `config.target`: the core and status modules plus one module
 * per selected component. Throws TargetError for an unknown target.
 */
export async function createServer(
  config: Config,
  options: ServerOptions = {},
): Promise<LogsvcServer> {
  const components = resolveTarget(config.target, {
    patternIngesterEnabled: config.pattern_ingester.enabled,
    sharedRing: sharesRing(config),
  });
  const logger = createLogger(config.server.log_level, options.logDestination);
  const registry = new ServiceRegistry(MODULE_DEPENDENCIES, logger, SERVICE_ORDER);
  const metrics = new HttpMetrics();

  const root: DynamicModule = {
    module: AppModule,
    imports: [
      CoreModule.forRoot({
        config,
        logger,
        registry,
        metrics,
        components,
        startupFiles: options.startupFiles ?? {},
      }),
      ClusterModule,
      ClientsModule,
      QueryQueueModule,
      StatusModule,
      ...components.map((c) => COMPONENT_MODULES[c]),
      ...(components.includes('querier') || components.includes('query-frontend')
        ? [QueryApiModule.forComponents(components)]
        : []),
      ...(!components.includes('compactor') && config.common.compactor_address !== ''
        ? [DeleteProxyModule]
        : []),
      ...(options.extraModules ?? []),
    ],
  };
  const bodyLimit = config.distributor.max_recv_msg_size;
  const adapter = new FastifyAdapter({
    bodyLimit,
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler: answerClientError,
    requestTimeout: config.server.http_server_read_timeout,
    keepAliveTimeout: config.server.http_server_idle_timeout,
  });
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    bodyParser: false,
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  // @nestjs/platform-fastify bundles its own copy of fastify; its instance has the same API.
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  registerBodyParsers(fastify);
  installTenancy(fastify, tenancyOf(config));
  installRequestHooks(fastify, metrics, logger);
  if (components.includes('query-frontend')) {
    if (config.frontend.compress_responses) installResponseCompression(fastify);
    if (config.frontend.log_queries_longer_than > 0) {
      installSlowQueryLog(fastify, logger, config.frontend.log_queries_longer_than);
    }
  }
  app.useGlobalFilters(new LokiExceptionFilter(logger, bodyLimit));
  // WebSocket gateways (the admin UI's live overview) share the HTTP port with the tail.
  app.useWebSocketAdapter(new SharedPortWsAdapter(app));

  // The HTTP server is itself a service, started first and stopped last, so /ready and
  // /services answer while the components start and stop.
  const host =
    config.server.http_listen_address === '' ? '0.0.0.0' : config.server.http_listen_address;
  registry.register({
    serviceName: 'server',
    starting: async () => {
      await app.listen(config.server.http_listen_port, host);
      const address = app.getHttpServer().address() as AddressInfo;
      logger.info({ address: address.address, port: address.port, components }, 'server listening');
    },
    stopping: async () => {
      await app.close();
    },
  });
  await app.init();

  return {
    app,
    registry,
    logger,
    components,
    start: () => registry.startAll(),
    stop: () => registry.stopAll(),
    url: () => {
      const address = app.getHttpServer().address() as AddressInfo | null;
      if (!address) throw new Error('server is not listening');
      const h = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${h}:${address.port}`;
    },
  };
}
