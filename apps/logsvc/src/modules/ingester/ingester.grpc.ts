import type { Config } from '@logsvc/config';
import { LocalIngesterClient } from '@logsvc/ingester';
import { type GrpcService, type RpcLogger, ingesterGrpcServices } from '@logsvc/rpc';
import { Inject, Injectable } from '@nestjs/common';
import { sharesRing } from '../../cluster-mode';
import { CONFIG } from '../../tokens';
import { type GrpcHandlerSource, GrpcHandlers } from '../cluster/grpc-handlers';

/** With a shared ring, distributors push to and queriers read from this ingester over gRPC. */
@GrpcHandlers()
@Injectable()
export class IngesterGrpcHandlers implements GrpcHandlerSource {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LocalIngesterClient) private readonly ingester: LocalIngesterClient,
  ) {}

  grpcServices(logger: RpcLogger): GrpcService[] {
    return sharesRing(this.config) ? ingesterGrpcServices(this.ingester, logger) : [];
  }
}
