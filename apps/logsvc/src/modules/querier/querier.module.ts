import { type DeleteRequestsStore, QueryDeletions } from '@logsvc/compactor';
import type { Config, Overrides } from '@logsvc/config';
import { type IngesterClient, LocalIngesterClient } from '@logsvc/ingester';
import type { PatternQuerier } from '@logsvc/pattern';
import { type ChunkDecoder, Querier, ReadApi } from '@logsvc/querier';
import type { ChunkStore, IndexReader } from '@logsvc/storage';
import { Module } from '@nestjs/common';
import { sharesRing } from '../../cluster-mode';
import {
  CHUNK_DECODER,
  CONFIG,
  DELETE_REQUESTS,
  INDEX_READER,
  INGESTER_CLIENT,
  OVERRIDES,
} from '../../tokens';
import { PATTERN_QUERIER } from '../clients/pattern-clients.provider';
import { CHUNK_STORE } from '../core/chunk-store.provider';
import { DetectedController } from './detected.controller';
import { IndexController } from './index.controller';
import { MetadataController } from './metadata.controller';
import { PatternsController } from './patterns.controller';
import { querierOptions } from './querier-options';
import { QuerierWorkerService } from './querier-worker.service';
import { QUERY_WORKER_POOL, queryWorkerPoolProvider } from './query-worker-pool.provider';
import { QuerierService } from './querier.service';
import { TailController } from './tail/tail.controller';
import { TailSockets } from './tail/tail-sockets.service';

/**
 * The read path (`@logsvc/querier`) behind HTTP: LogQL queries, labels, series, index stats and
 * volumes, and live tails over WebSockets.
 */
@Module({
  controllers: [
    MetadataController,
    IndexController,
    DetectedController,
    PatternsController,
    TailController,
  ],
  providers: [
    QuerierService,
    QuerierWorkerService,
    TailSockets,
    queryWorkerPoolProvider,
    {
      // The read endpoints besides queries: the controllers' and the querier worker's.
      provide: ReadApi,
      useFactory: (querier: Querier, patterns: PatternQuerier | null) =>
        new ReadApi(querier, patterns),
      inject: [Querier, PATTERN_QUERIER],
    },
    {
      provide: Querier,
      useFactory: (
        config: Config,
        store: ChunkStore,
        ingesters: IngesterClient,
        overrides: Overrides,
        index: IndexReader,
        deleteRequests: DeleteRequestsStore,
        local: LocalIngesterClient | undefined,
        decoder: ChunkDecoder,
      ) => {
        return new Querier({
          ...querierOptions(config, store, ingesters, overrides, index),
          decoder,
          scanWorkers: config.querier.scan_workers,
          tailMaxDurationMs: config.querier.tail_max_duration,
          poolMemory: {
            enabled: config.querier.query_workers_ingester_data,
            minBytes: config.querier.query_workers_min_ingester_bytes,
          },
          // Query workers read the ingester's memory only where it runs in this process.
          ...(local === undefined || sharesRing(config) ? {} : { memory: local }),
          // Lines of delete requests are dropped at query time until the compactor removed them.
          deletions: new QueryDeletions(
            deleteRequests,
            (tenant) => overrides.forTenant(tenant).deletion_mode,
          ),
        });
      },
      inject: [
        CONFIG,
        CHUNK_STORE,
        INGESTER_CLIENT,
        OVERRIDES,
        INDEX_READER,
        DELETE_REQUESTS,
        { token: LocalIngesterClient, optional: true },
        CHUNK_DECODER,
      ],
    },
  ],
  // The query frontend's in-process sub-queries run on these (`runPooledQuery`).
  exports: [Querier, QUERY_WORKER_POOL],
})
export class QuerierModule {}
