import type { IngesterClient } from '@logsvc/ingester';
import { type LogSource, combineSources } from '@logsvc/logql';
import type { StoreReader } from './store-reader';
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
    ingesters: IngesterClient,
    window: ReadWindow,
    pool: ChunkScanPool | null = null,
  ) {
    // The store first: within one timestamp, entries already flushed were appended before the
    // ones still only in memory, and the merge keeps the first source's entries first.
    this.source = combineSources(
      new WindowedSource(new StoreLogSource(store, { pool }), (f, t) => window.storeRange(f, t)),
      new WindowedSource(new IngesterLogSource(ingesters, { pool }), (f, t) =>
        window.ingesterRange(f, t),
      ),
    );
  }

  /** The source of every tenant (each request names its tenant in `SelectParams.tenant`). */
  get all(): LogSource {
    return this.source;
  }
}
