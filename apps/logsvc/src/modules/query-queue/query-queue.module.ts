import type { Config } from '@logsvc/config';
import { Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { HttpMetrics } from '../../http/http-metrics';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, LOGGER } from '../../tokens';
import { LocalJobQueue } from './local-job-queue';
import { QueryQueueGrpcHandlers } from './query-queue.grpc';

/**
 * The query queue of this process, when it holds one (a scheduler's, or a frontend's without a
 * scheduler), loaded for every target: what the frontend submits to, this process's querier
 * workers pull from, and, over gRPC, other processes' workers and frontends reach.
 */
@Global()
@Module({
  providers: [
    {
      provide: LocalJobQueue,
      useFactory: (
        config: Config,
        components: readonly Component[],
        metrics: HttpMetrics,
        logger: Logger,
      ) => new LocalJobQueue(config, components, metrics.registry, logger),
      inject: [CONFIG, COMPONENTS, HttpMetrics, LOGGER],
    },
    QueryQueueGrpcHandlers,
  ],
  exports: [LocalJobQueue],
})
export class QueryQueueModule {}
