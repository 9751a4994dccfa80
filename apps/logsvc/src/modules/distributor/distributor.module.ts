import { Module } from '@nestjs/common';
import { DistributorMetrics } from './distributor-metrics';
import { DistributorService } from './distributor.service';
import { PushController } from './push.controller';

/** Loaded when `-target` includes distributor: the push and OTLP endpoints. */
@Module({ controllers: [PushController], providers: [DistributorService, DistributorMetrics] })
export class DistributorModule {}
