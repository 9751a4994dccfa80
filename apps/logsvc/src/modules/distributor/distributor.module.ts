import { Module } from '@nestjs/common';
import { DistributorService } from './distributor.service';

/** Loaded when `-target` includes distributor. Add this component's controllers here. */
@Module({ providers: [DistributorService] })
export class DistributorModule {}
