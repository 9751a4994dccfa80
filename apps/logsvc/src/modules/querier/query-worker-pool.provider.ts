import type { Config } from '@logsvc/config';
import { type QueryWorkerPool, queryPoolFor } from '@logsvc/querier';
import type { Provider } from '@nestjs/common';
import type { ChunkStore, IndexReader } from '@logsvc/storage';
import type { Logger } from 'pino';
import { CONFIG, INDEX_READER, LOGGER } from '../../tokens';
import { CHUNK_STORE, chunkStoreSettings } from '../core/chunk-store.provider';

/**
 * The querier's query worker threads (`QueryWorkerPool`, or null with `querier.query_workers`
 * < 0): they run sub-queries the store alone answers, each over its own chunk store on the
 * same objects, and metric sub-queries over the in-process ingester's data (snapshots the
 * querier sends them, `querier.query_workers_ingester_data`). Only processes that run the querier and read the index from the store have
 * it; the querier service closes it.
 */
export const QUERY_WORKER_POOL = Symbol('logsvc.queryWorkerPool');

export const queryWorkerPoolProvider: Provider = {
  provide: QUERY_WORKER_POOL,
  inject: [CONFIG, INDEX_READER, CHUNK_STORE, LOGGER],
  useFactory: (
    config: Config,
    index: IndexReader,
    store: ChunkStore,
    logger: Logger,
  ): QueryWorkerPool | null =>
    // Workers read the index from the object store: not for a querier told to read it from
    // index gateways, whose queries must fail, not quietly succeed, when no gateway answers.
    index !== store
      ? null
      : // Workers only read: the uploader name (of index files written) is never used.
        queryPoolFor(config.querier.query_workers, {
          store: chunkStoreSettings(config, 'query-worker'),
          blockCacheMb: config.querier.block_cache_mb,
          onWorkerDied: (why, queries) =>
            logger.warn(
              {
                why,
                queries: queries.map((q) => ({ tenant: q.tenants.join('|'), query: q.query })),
              },
              'a query worker thread died (killed or out of memory); its queries failed and are not retried',
            ),
        }),
};
