import { Module } from '@nestjs/common';
import { QuerierService } from './querier.service';

/** Loaded when `-target` includes querier. Add this component's controllers here. */
@Module({ providers: [QuerierService] })
export class QuerierModule {}
