import { Module } from '@nestjs/common';
import { IndexGatewayService } from './index-gateway.service';

/** Loaded when `-target` includes index-gateway. Add this component's controllers here. */
@Module({ providers: [IndexGatewayService] })
export class IndexGatewayModule {}
