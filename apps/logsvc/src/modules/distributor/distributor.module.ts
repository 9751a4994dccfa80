import type { Config, Overrides } from '@logsvc/config';
import { Distributor } from '@logsvc/distributor';
import { type IngesterClient, LocalIngesterClient } from '@logsvc/ingester';
import type { PatternTee } from '@logsvc/pattern';
import { Module } from '@nestjs/common';
import { sharesRing } from '../../cluster-mode';
import { CONFIG, INGESTER_CLIENT, OVERRIDES } from '../../tokens';
import { PATTERN_TEE } from '../clients/pattern-clients.provider';
import { DistributorMetrics } from './distributor-metrics';
import { DistributorService } from './distributor.service';
import { PushController } from './push.controller';

/** Loaded when `-target` includes distributor: the push and OTLP endpoints. */
@Module({
  controllers: [PushController],
  providers: [
    DistributorMetrics,
    DistributorService,
    {
      provide: Distributor,
      inject: [
        CONFIG,
        OVERRIDES,
        INGESTER_CLIENT,
        DistributorMetrics,
        DistributorService,
        PATTERN_TEE,
        { token: LocalIngesterClient, optional: true },
      ],
      useFactory: (
        config: Config,
        overrides: Overrides,
        ingester: IngesterClient,
        metrics: DistributorMetrics,
        service: DistributorService,
        tee: PatternTee | null,
        local: LocalIngesterClient | undefined,
      ) =>
        new Distributor({
          limits: overrides,
          ingester,
          // In a cluster the ingesters check their stream limits when they store.
          ...(local === undefined || sharesRing(config) ? {} : { admission: local }),
          metrics,
          maxRecvMsgSize: config.distributor.max_recv_msg_size,
          distributors: () => service.healthyDistributors(),
          tee: tee ?? undefined,
        }),
    },
  ],
})
export class DistributorModule {}
