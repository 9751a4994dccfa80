import { Ingester, LocalIngesterClient, ProcessTerminator } from '@logsvc/ingester';
import { Global, Module } from '@nestjs/common';
import { CONFIG, LOGGER, OVERRIDES } from '../../tokens';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { IngesterController } from './ingester.controller';
import { IngesterGrpcHandlers } from './ingester.grpc';
import { IngesterService, createIngester } from './ingester.service';

/**
 * Loaded when `-target` includes ingester: the in-process ingester, its HTTP endpoints and its
 * gRPC services. Global for LocalIngesterClient, through which this process's distributor,
 * querier and ruler reach it directly (absent where no ingester runs).
 */
@Global()
@Module({
  controllers: [IngesterController],
  providers: [
    {
      provide: Ingester,
      useFactory: createIngester,
      inject: [CONFIG, OVERRIDES, CHUNK_STORE, LOGGER],
    },
    {
      provide: LocalIngesterClient,
      useFactory: (ingester: Ingester) => new LocalIngesterClient(ingester),
      inject: [Ingester],
    },
    IngesterService,
    { provide: ProcessTerminator, useFactory: () => new ProcessTerminator() },
    IngesterGrpcHandlers,
  ],
  exports: [LocalIngesterClient],
})
export class IngesterModule {}
