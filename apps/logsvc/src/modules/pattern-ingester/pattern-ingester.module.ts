import { Module } from '@nestjs/common';
import { PatternIngesterService } from './pattern-ingester.service';

/** Loaded when `-target` includes pattern-ingester (in `all` and `write` when enabled). */
@Module({ providers: [PatternIngesterService] })
export class PatternIngesterModule {}
