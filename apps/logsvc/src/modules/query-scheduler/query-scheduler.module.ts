import { Module } from '@nestjs/common';
import { QuerySchedulerService } from './query-scheduler.service';

/** Loaded when `-target` includes query-scheduler. Add this component's controllers here. */
@Module({ providers: [QuerySchedulerService] })
export class QuerySchedulerModule {}
