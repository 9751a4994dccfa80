import type { Config } from '@logsvc/config';
import { type GrpcService, type RpcLogger, httpGrpcServices } from '@logsvc/rpc';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { sharesRing } from '../../cluster-mode';
import { routeExecutor } from '../../http/route-executor';
import { CONFIG } from '../../tokens';
import { type GrpcHandlerSource, GrpcHandlers } from '../cluster/grpc-handlers';

/**
 * With a shared ring, rulers in remote evaluation mode send their queries to this frontend's
 * HTTP routes over gRPC (`httpgrpc.HTTP/Handle`).
 */
@GrpcHandlers()
@Injectable()
export class QueryFrontendGrpcHandlers implements GrpcHandlerSource {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {}

  grpcServices(logger: RpcLogger): GrpcService[] {
    if (!sharesRing(this.config)) return [];
    const fastify = this.adapterHost.httpAdapter.getInstance() as unknown as FastifyInstance;
    return httpGrpcServices(routeExecutor(fastify), logger);
  }
}
