import type { Lifecycler } from '@logsvc/ring';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { LOGGER } from '../../tokens';
import { GrpcServerService } from '../cluster/grpc-server.service';
import { memberLifecycler } from '../cluster/ring-member';
import { RingsService } from '../cluster/rings.service';

/**
 * The index gateway: serves index reads (chunk refs, labels, series, stats, volume) from the
 * object store to queriers over gRPC (the gRPC server carries the service). It registers in the
 * index gateway ring, where queriers in `ring` mode find it; in `simple` mode they are given its
 * address instead.
 */
@Injectable()
export class IndexGatewayService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'index-gateway';
  private lifecycler: Lifecycler | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(RingsService) private readonly rings: RingsService,
    @Inject(GrpcServerService) private readonly grpc: GrpcServerService,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'index-gateway' });
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async starting(): Promise<void> {
    this.lifecycler = memberLifecycler(this.rings, 'index-gateway', this.grpc.port, this.logger);
    await this.lifecycler.start();
  }

  async stopping(): Promise<void> {
    await this.lifecycler?.stop();
  }
}
