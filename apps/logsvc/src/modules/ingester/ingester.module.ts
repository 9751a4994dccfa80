import { Module } from '@nestjs/common';
import { IngesterService } from './ingester.service';

/** Loaded when `-target` includes ingester. Add this component's controllers here. */
@Module({ providers: [IngesterService] })
export class IngesterModule {}
