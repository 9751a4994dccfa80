import { type GrpcService, type RpcLogger, indexGatewayGrpcServices } from '@logsvc/rpc';
import type { ChunkStore } from '@logsvc/storage';
import { Inject, Injectable } from '@nestjs/common';
import { type GrpcHandlerSource, GrpcHandlers } from '../cluster/grpc-handlers';
import { CHUNK_STORE } from '../core/chunk-store.provider';

/** Queriers read the index of the object store through this process (in any ring mode). */
@GrpcHandlers()
@Injectable()
export class IndexGatewayGrpcHandlers implements GrpcHandlerSource {
  constructor(@Inject(CHUNK_STORE) private readonly store: ChunkStore) {}

  grpcServices(logger: RpcLogger): GrpcService[] {
    return indexGatewayGrpcServices(this.store, logger);
  }
}
