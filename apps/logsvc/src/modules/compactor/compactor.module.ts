import { Module } from '@nestjs/common';
import { CompactorMetrics } from './compactor-metrics';
import { CompactorService } from './compactor.service';
import { DeleteController } from './delete.controller';

/** Loaded when `-target` includes compactor (part of `all` and `backend`). */
@Module({
  controllers: [DeleteController],
  providers: [CompactorMetrics, CompactorService],
})
export class CompactorModule {}
