import type { ShardRef } from '@logsvc/api';
import type { IngesterQueryClient } from '@logsvc/ingester';
import { type LogSource, combineSources } from '@logsvc/logql';
import type { ChunkDecoder } from './chunk-decoder';
import type { StoreReader } from './store-reader';
import { DeletionFilteringSource, type LineDeletionFilter } from './deletion-source';
import { IngesterLogSource } from './ingester-source';
import type { ReadWindow } from './read-window';
import type { ChunkScanPool } from './scan-pool';
import { StoreLogSource } from './store-source';
import { WindowedSource } from './windowed-source';

/**
 * Where a LogQL query reads one tenant's entries: the ingesters for the recent window and the
 * chunk store for the whole range, merged so an entry held by both is returned once.
 */
export class QuerySources {
  private readonly source: LogSource;

  constructor(
    store: StoreReader,
    ingesters: IngesterQueryClient,
    window: ReadWindow,
    pool: ChunkScanPool | null = null,
    deletions: LineDeletionFilter | null = null,
    /** What turns the store's chunk bytes into chunks; default: this thread's `chunkDecoder`. */
    decoder?: ChunkDecoder,
  ) {
    // The store first: within one timestamp, entries already flushed were appended before the
    // ones still only in memory, and the merge keeps the first source's entries first.
    const combined = combineSources(
      new WindowedSource(
        new StoreLogSource(store, { pool, ...(decoder ? { decoder } : {}) }),
        (f, t) => window.storeRange(f, t),
      ),
      new WindowedSource(new IngesterLogSource(ingesters, { pool }), (f, t) =>
        window.ingesterRange(f, t),
      ),
    );
    this.source = deletions === null ? combined : new DeletionFilteringSource(combined, deletions);
  }

  /** The source of every tenant (each request names its tenant in `SelectParams.tenant`). */
  get all(): LogSource {
    return this.source;
  }

  /** The source of every tenant, reading only the streams of `shard`. */
  shard(shard: ShardRef): LogSource {
    const source = this.source;
    return { select: (params) => source.select({ ...params, shard }) };
  }
}
