import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { LOGGER } from '../../tokens';
import { GrpcServerService } from '../cluster/grpc-server.service';
import { RingMemberService } from '../cluster/ring-member';
import { RingsService } from '../cluster/rings.service';

/**
 * The index gateway: serves index reads (chunk refs, labels, series, stats, volume) from the
 * object store to queriers over gRPC (the gRPC server carries the service). It registers in the
 * index gateway ring, where queriers in `ring` mode find it; in `simple` mode they are given its
 * address instead.
 */
@Injectable()
export class IndexGatewayService extends RingMemberService {
  readonly serviceName = 'index-gateway';

  constructor(
    @Inject(ServiceRegistry) registry: ServiceRegistry,
    @Inject(RingsService) rings: RingsService,
    @Inject(GrpcServerService) private readonly grpc: GrpcServerService,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(registry, rings, 'index-gateway', logger.child({ component: 'index-gateway' }));
  }

  protected override advertisedPort(): number | undefined {
    return this.grpc.port;
  }
}
