import { Global, Module } from '@nestjs/common';
import { INDEX_READER, INGESTER_CLIENT } from '../../tokens';
import { ClientPoolsService } from './client-pools.service';
import {
  INDEX_GATEWAY_POOL,
  indexGatewayPoolProvider,
  indexReaderProvider,
} from './index-reader.provider';
import {
  INGESTER_POOL,
  ingesterClientProvider,
  ingesterPoolProvider,
} from './ingester-client.provider';
import {
  PATTERN_POOL,
  PATTERN_QUERIER,
  PATTERN_TEE,
  patternPoolProvider,
  patternQuerierProvider,
  patternTeeProvider,
} from './pattern-clients.provider';
import { PatternMetrics } from './pattern-metrics';

/**
 * How this process reaches the components it calls, loaded for every target: INGESTER_CLIENT
 * (this process's ingester, or the ring of ingesters), INDEX_READER (the store, or index
 * gateways), the pattern tee and querier, and the gRPC client pools behind them. A component
 * running in this process is reached through the in-process client its own module provides.
 */
@Global()
@Module({
  providers: [
    ClientPoolsService,
    ingesterPoolProvider,
    ingesterClientProvider,
    indexGatewayPoolProvider,
    indexReaderProvider,
    PatternMetrics,
    patternPoolProvider,
    patternTeeProvider,
    patternQuerierProvider,
  ],
  exports: [
    INGESTER_POOL,
    INGESTER_CLIENT,
    INDEX_GATEWAY_POOL,
    INDEX_READER,
    PatternMetrics,
    PATTERN_POOL,
    PATTERN_TEE,
    PATTERN_QUERIER,
  ],
})
export class ClientsModule {}
