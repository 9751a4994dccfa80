import { Module } from '@nestjs/common';
import { IndexGatewayGrpcHandlers } from './index-gateway.grpc';
import { IndexGatewayService } from './index-gateway.service';

/** Loaded when `-target` includes index-gateway (part of `backend`). */
@Module({ providers: [IndexGatewayService, IndexGatewayGrpcHandlers] })
export class IndexGatewayModule {}
