import type { Config } from '@logsvc/config';
import type { ChunkStore } from '@logsvc/storage';
import { Module } from '@nestjs/common';
import { CONFIG } from '../../tokens';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { LocalIngester } from '../core/local-ingester';
import { FormatQueryController } from './format-query.controller';
import { IndexController } from './index.controller';
import { MetadataController } from './metadata.controller';
import { QuerierService } from './querier.service';
import { MetadataQuerier } from './read/metadata-querier';
import { nowNs } from './params/query-params';
import { ReadWindow } from './read/read-window';

/** The read path: LogQL queries, labels, series, index stats and volumes, format_query. */
@Module({
  controllers: [FormatQueryController, MetadataController, IndexController],
  providers: [
    QuerierService,
    {
      provide: ReadWindow,
      useFactory: (config: Config) => new ReadWindow(config.querier, nowNs),
      inject: [CONFIG],
    },
    {
      provide: MetadataQuerier,
      useFactory: (store: ChunkStore, local: LocalIngester, window: ReadWindow) =>
        new MetadataQuerier(store, local, window),
      inject: [CHUNK_STORE, LocalIngester, ReadWindow],
    },
  ],
})
export class QuerierModule {}
