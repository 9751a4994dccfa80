import { Module } from '@nestjs/common';
import { IndexGatewayService } from './index-gateway.service';

/** Loaded when `-target` includes index-gateway (part of `backend`). */
@Module({ providers: [IndexGatewayService] })
export class IndexGatewayModule {}
