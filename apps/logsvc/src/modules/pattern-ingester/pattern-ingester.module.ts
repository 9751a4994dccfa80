import { Global, Module } from '@nestjs/common';
import { LOCAL_PATTERN_INGESTER } from '../../tokens';
import { PatternIngesterGrpcHandlers } from './pattern-ingester.grpc';
import { PatternIngesterService } from './pattern-ingester.service';

/**
 * Loaded when `-target` includes pattern-ingester (in `all`, `write` and `backend` when enabled).
 * Global for LOCAL_PATTERN_INGESTER, which the pattern tee and querier use in this process.
 */
@Global()
@Module({
  providers: [
    PatternIngesterService,
    { provide: LOCAL_PATTERN_INGESTER, useExisting: PatternIngesterService },
    PatternIngesterGrpcHandlers,
  ],
  exports: [LOCAL_PATTERN_INGESTER],
})
export class PatternIngesterModule {}
