/** What the query frontend reports about the work of one query, from `data.stats`. */
export interface FrontendCounters {
  /** `summary.splits`: time splits answered. */
  readonly splits: number;
  /** `summary.shards`: shards sent. */
  readonly shards: number;
  /** `summary.subqueries`: every sub-query. */
  readonly subqueries: number;
  /** `cache.result`: the results cache's lookups; zeros when it is off. */
  readonly cacheEntriesRequested: number;
  readonly cacheEntriesFound: number;
  readonly cacheEntriesStored: number;
  /** `querier.store.totalChunksDownloaded`: chunks fetched, counted once per sub-query. */
  readonly chunksDownloaded: number;
  /** `querier.store.chunk.compressedBytes`: their bytes. */
  readonly compressedBytes: number;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object'
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/** The counters of a response's `data.stats`; a counter the server left out reads 0. */
export function frontendCounters(stats: unknown): FrontendCounters {
  const summary = field(stats, 'summary');
  const cache = field(field(stats, 'cache'), 'result');
  const store = field(field(stats, 'querier'), 'store');
  return {
    splits: count(field(summary, 'splits')),
    shards: count(field(summary, 'shards')),
    subqueries: count(field(summary, 'subqueries')),
    cacheEntriesRequested: count(field(cache, 'entriesRequested')),
    cacheEntriesFound: count(field(cache, 'entriesFound')),
    cacheEntriesStored: count(field(cache, 'entriesStored')),
    chunksDownloaded: count(field(store, 'totalChunksDownloaded')),
    compressedBytes: count(field(field(store, 'chunk'), 'compressedBytes')),
  };
}
