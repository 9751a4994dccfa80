import { Module } from '@nestjs/common';
import { JOB_QUEUE } from '../../tokens';
import { FrontendForwarder } from './frontend-forwarder';
import { jobQueueProvider, schedulerPoolProvider } from './job-queue.provider';
import { QueryFrontendGrpcHandlers } from './query-frontend.grpc';
import { QueryFrontendService } from './query-frontend.service';

/**
 * Loaded when `-target` includes query-frontend (part of `read` and `all`). Exports JOB_QUEUE,
 * the queue its requests take to querier workers.
 */
@Module({
  providers: [
    schedulerPoolProvider,
    jobQueueProvider,
    FrontendForwarder,
    QueryFrontendService,
    QueryFrontendGrpcHandlers,
  ],
  exports: [JOB_QUEUE],
})
export class QueryFrontendModule {}
