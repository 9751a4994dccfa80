import type { Config, Overrides } from '@logsvc/config';
import { Distributor } from '@logsvc/distributor';
import { LocalIngesterClient } from '@logsvc/ingester';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, OVERRIDES } from '../../tokens';
import { DistributorMetrics } from './distributor-metrics';
import { PushController } from './push.controller';

/** Loaded when `-target` includes distributor: the push and OTLP endpoints. */
@Module({
  controllers: [PushController],
  providers: [
    DistributorMetrics,
    {
      provide: Distributor,
      inject: [CONFIG, OVERRIDES, LocalIngesterClient, DistributorMetrics],
      useFactory: (
        config: Config,
        overrides: Overrides,
        ingester: LocalIngesterClient,
        metrics: DistributorMetrics,
      ) =>
        new Distributor({
          limits: overrides,
          ingester,
          metrics,
          maxRecvMsgSize: config.distributor.max_recv_msg_size,
        }),
    },
  ],
})
export class DistributorModule implements OnModuleInit {
  constructor(@Inject(ServiceRegistry) private readonly registry: ServiceRegistry) {}

  /** Listed by `/services`; the distributor holds no resources to start or stop. */
  onModuleInit(): void {
    this.registry.register({ serviceName: 'distributor' });
  }
}
