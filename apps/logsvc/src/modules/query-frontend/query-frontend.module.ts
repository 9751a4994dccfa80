import { Module } from '@nestjs/common';
import { JOB_QUEUE } from '../../tokens';
import { FrontendForwarder } from './frontend-forwarder';
import { jobQueueProvider, schedulerPoolProvider } from './job-queue.provider';
import { QueryFrontendService } from './query-frontend.service';

/**
 * Loaded when `-target` includes query-frontend (part of `read` and `all`). Exports JOB_QUEUE,
 * the queue its requests take to querier workers, and the forwarder of its read endpoints
 * (which `httpgrpc.HTTP/Handle`, served beside the query path, answers reads with).
 */
@Module({
  providers: [schedulerPoolProvider, jobQueueProvider, FrontendForwarder, QueryFrontendService],
  exports: [JOB_QUEUE, FrontendForwarder],
})
export class QueryFrontendModule {}
