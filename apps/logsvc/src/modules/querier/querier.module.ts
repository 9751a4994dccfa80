import type { Config, Overrides } from '@logsvc/config';
import { LocalIngesterClient } from '@logsvc/ingester';
import { Querier } from '@logsvc/querier';
import type { ChunkStore } from '@logsvc/storage';
import { Module } from '@nestjs/common';
import { CONFIG, OVERRIDES } from '../../tokens';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { IndexController } from './index.controller';
import { MetadataController } from './metadata.controller';
import { nowNs } from './params/query-params';
import { QuerierService } from './querier.service';
import { QueryController } from './query/query.controller';

/** The read path (`@logsvc/querier`) behind HTTP: LogQL queries, labels, series, index stats and volumes. */
@Module({
  controllers: [QueryController, MetadataController, IndexController],
  providers: [
    QuerierService,
    {
      provide: Querier,
      useFactory: (
        config: Config,
        store: ChunkStore,
        ingesters: LocalIngesterClient,
        overrides: Overrides,
      ) =>
        new Querier({
          store,
          ingesters,
          window: config.querier,
          overrides,
          now: nowNs,
          scanWorkers: config.querier.scan_workers,
        }),
      inject: [CONFIG, CHUNK_STORE, LocalIngesterClient, OVERRIDES],
    },
  ],
})
export class QuerierModule {}
