import { Module } from '@nestjs/common';
import { QuerySchedulerService } from './query-scheduler.service';

/** Loaded when `-target` includes query-scheduler (part of `backend` and `all`). */
@Module({ providers: [QuerySchedulerService] })
export class QuerySchedulerModule {}
