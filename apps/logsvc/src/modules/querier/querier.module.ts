import type { Config, Overrides } from '@logsvc/config';
import type { ChunkStore } from '@logsvc/storage';
import { Module } from '@nestjs/common';
import { CONFIG, OVERRIDES } from '../../tokens';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { LocalIngesterClient } from '@logsvc/ingester';
import { IndexController } from './index.controller';
import { MetadataController } from './metadata.controller';
import { nowNs } from './params/query-params';
import { QuerierService } from './querier.service';
import { QueryController } from './query/query.controller';
import { QueryExecutor } from './query/query-executor';
import { MetadataQuerier } from './read/metadata-querier';
import { QuerySources } from './read/query-sources';
import { ReadWindow } from './read/read-window';
import { ScanPoolShutdown } from './read/scan-pool-shutdown';

/** The read path: LogQL queries, labels, series, index stats and volumes. */
@Module({
  controllers: [QueryController, MetadataController, IndexController],
  providers: [
    QuerierService,
    ScanPoolShutdown,
    {
      provide: ReadWindow,
      useFactory: (config: Config) => new ReadWindow(config.querier, nowNs),
      inject: [CONFIG],
    },
    {
      provide: MetadataQuerier,
      useFactory: (store: ChunkStore, local: LocalIngesterClient, window: ReadWindow) =>
        new MetadataQuerier(store, local, window),
      inject: [CHUNK_STORE, LocalIngesterClient, ReadWindow],
    },
    {
      provide: QuerySources,
      useFactory: (store: ChunkStore, local: LocalIngesterClient, window: ReadWindow) =>
        new QuerySources(store, local, window),
      inject: [CHUNK_STORE, LocalIngesterClient, ReadWindow],
    },
    {
      provide: QueryExecutor,
      useFactory: (sources: QuerySources, overrides: Overrides) =>
        new QueryExecutor(sources, overrides, nowNs),
      inject: [QuerySources, OVERRIDES],
    },
  ],
})
export class QuerierModule {}
