import { HttpMetrics } from '../../http/http-metrics';
import { Global, Module } from '@nestjs/common';
import { ClientPoolsCloser } from './client-pools.closer';
import { GrpcServerService } from './grpc-server.service';
import { InstanceDirectory } from './instance-directory';
import {
  ingesterClientProvider,
  ingesterPoolProvider,
  INGESTER_POOL,
} from './ingester-client.provider';
import { LocalJobQueue } from './local-job-queue';
import { LocalPatternIngester } from './local-pattern-ingester';
import { LocalRuler } from './local-ruler';
import {
  PATTERN_POOL,
  PATTERN_QUERIER,
  PATTERN_TEE,
  patternPoolProvider,
  patternQuerierProvider,
  patternTeeProvider,
} from './pattern-clients.provider';
import { PatternMetrics } from './pattern-metrics';
import { RingPagesController } from './ring-pages.controller';
import { RingsService } from './rings.service';
import type { Config } from '@logsvc/config';
import type { Logger } from 'pino';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG, INDEX_READER, INGESTER_CLIENT, LOGGER } from '../../tokens';
import {
  INDEX_GATEWAY_POOL,
  indexGatewayPoolProvider,
  indexReaderProvider,
} from './index-reader.provider';

/**
 * What lets components find each other, loaded for every target: the rings (KV store and
 * watchers), the gRPC server peers call, INGESTER_CLIENT (this process's ingester, or the ring
 * of ingesters), the ring status pages, and this process's report for the admin UI.
 */
@Global()
@Module({
  controllers: [RingPagesController],
  providers: [
    ClientPoolsCloser,
    RingsService,
    InstanceDirectory,
    GrpcServerService,
    ingesterPoolProvider,
    ingesterClientProvider,
    indexGatewayPoolProvider,
    indexReaderProvider,
    { provide: LocalPatternIngester, useValue: new LocalPatternIngester() },
    { provide: LocalRuler, useValue: new LocalRuler() },
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
    PatternMetrics,
    patternPoolProvider,
    patternTeeProvider,
    patternQuerierProvider,
  ],
  exports: [
    RingsService,
    InstanceDirectory,
    GrpcServerService,
    INGESTER_POOL,
    INGESTER_CLIENT,
    INDEX_GATEWAY_POOL,
    INDEX_READER,
    LocalPatternIngester,
    LocalRuler,
    LocalJobQueue,
    PatternMetrics,
    PATTERN_POOL,
    PATTERN_TEE,
    PATTERN_QUERIER,
  ],
})
export class ClusterModule {}
