import { Module } from '@nestjs/common';
import { PatternIngesterService } from './pattern-ingester.service';

/** Loaded when `-target` includes pattern-ingester (in `all`, `write` and `backend` when enabled). */
@Module({ providers: [PatternIngesterService] })
export class PatternIngesterModule {}
