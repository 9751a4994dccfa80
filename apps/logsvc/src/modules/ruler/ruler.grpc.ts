import type { Config } from '@logsvc/config';
import { type GrpcService, type RpcLogger, rulerGrpcServices } from '@logsvc/rpc';
import { Inject, Injectable } from '@nestjs/common';
import { sharesRing } from '../../cluster-mode';
import { CONFIG } from '../../tokens';
import { type GrpcHandlerSource, GrpcHandlers } from '../cluster/grpc-handlers';
import { RulerService } from './ruler.service';

/** With a shared ring, other rulers ask this one for its groups (a cluster's rules listing). */
@GrpcHandlers()
@Injectable()
export class RulerGrpcHandlers implements GrpcHandlerSource {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RulerService) private readonly ruler: RulerService,
  ) {}

  grpcServices(logger: RpcLogger): GrpcService[] {
    if (!sharesRing(this.config)) return [];
    return rulerGrpcServices({ rules: (t, r) => this.ruler.peerRules(t, r) }, logger);
  }
}
