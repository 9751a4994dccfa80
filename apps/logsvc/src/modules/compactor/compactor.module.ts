import { Module } from '@nestjs/common';
import { CompactorService } from './compactor.service';

/** Loaded when `-target` includes compactor. Add this component's controllers here. */
@Module({ providers: [CompactorService] })
export class CompactorModule {}
