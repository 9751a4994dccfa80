import type { Config } from '@logsvc/config';
import { type GrpcService, type RpcLogger, patternGrpcServices } from '@logsvc/rpc';
import { Inject, Injectable } from '@nestjs/common';
import { sharesRing } from '../../cluster-mode';
import { CONFIG } from '../../tokens';
import { type GrpcHandlerSource, GrpcHandlers } from '../cluster/grpc-handlers';
import { PatternIngesterService } from './pattern-ingester.service';

/** With a shared ring, distributors' tees push to and queriers ask this pattern ingester. */
@GrpcHandlers()
@Injectable()
export class PatternIngesterGrpcHandlers implements GrpcHandlerSource {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(PatternIngesterService) private readonly ingester: PatternIngesterService,
  ) {}

  grpcServices(logger: RpcLogger): GrpcService[] {
    return sharesRing(this.config) ? patternGrpcServices(this.ingester, logger) : [];
  }
}
