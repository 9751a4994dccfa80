import { Module } from '@nestjs/common';
import { IngesterController } from './ingester.controller';
import { IngesterService } from './ingester.service';
import { ProcessTerminator } from './process-terminator';

/** Loaded when `-target` includes ingester: the in-process ingester and its HTTP endpoints. */
@Module({
  controllers: [IngesterController],
  providers: [IngesterService, ProcessTerminator],
})
export class IngesterModule {}
