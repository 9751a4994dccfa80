import { Module } from '@nestjs/common';
import { PatternIngesterService } from './pattern-ingester.service';

/** Loaded when `-target` includes pattern-ingester. Add this component's controllers here. */
@Module({ providers: [PatternIngesterService] })
export class PatternIngesterModule {}
