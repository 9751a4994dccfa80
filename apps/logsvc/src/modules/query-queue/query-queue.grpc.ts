import type { Config } from '@logsvc/config';
import {
  type GrpcService,
  type RpcLogger,
  queryQueueGrpcServices,
  schedulerGrpcServices,
} from '@logsvc/rpc';
import { Inject, Injectable } from '@nestjs/common';
import { sharesRing } from '../../cluster-mode';
import type { Component } from '../../targets';
import { COMPONENTS, CONFIG } from '../../tokens';
import { type GrpcHandlerSource, GrpcHandlers } from '../cluster/grpc-handlers';
import { LocalJobQueue } from './local-job-queue';

/**
 * With a shared ring, this process's query queue (when it holds one): querier workers of other
 * processes pull from it, and, when it is a scheduler's, frontends of other processes submit to it.
 */
@GrpcHandlers()
@Injectable()
export class QueryQueueGrpcHandlers implements GrpcHandlerSource {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(COMPONENTS) private readonly components: readonly Component[],
    @Inject(LocalJobQueue) private readonly jobs: LocalJobQueue,
  ) {}

  grpcServices(logger: RpcLogger): GrpcService[] {
    const dispatcher = this.jobs.dispatcher;
    if (dispatcher === undefined || !sharesRing(this.config)) return [];
    return [
      ...queryQueueGrpcServices(dispatcher, logger),
      ...(this.components.includes('query-scheduler')
        ? schedulerGrpcServices(dispatcher, logger)
        : []),
    ];
  }
}
