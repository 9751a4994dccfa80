import { newCacheStats, type CacheStats } from '@logsvc/api';

/**
 * Query statistics, laid out as Loki's `stats.proto` (the layout Loki really sends in
 * `data.stats`). Sources add to `querier.store` (chunk store) or `ingester` (ingesters), the
 * engine to the summary. `execTime`/`queueTime` are seconds; `*Time` durations of the store
 * are nanoseconds, as Loki's.
 */
export interface ChunkStats {
  headChunkBytes: number;
  headChunkLines: number;
  decompressedBytes: number;
  decompressedLines: number;
  compressedBytes: number;
  totalDuplicates: number;
  postFilterLines: number;
  headChunkStructuredMetadataBytes: number;
  decompressedStructuredMetadataBytes: number;
}

export interface StoreStats {
  totalChunksRef: number;
  totalChunksDownloaded: number;
  chunksDownloadTime: number;
  queryReferencedStructuredMetadata: boolean;
  chunk: ChunkStats;
  chunkRefsFetchTime: number;
  congestionControlLatency: number;
  pipelineWrapperFilteredLines: number;
}

export interface IngesterStats {
  totalReached: number;
  totalChunksMatched: number;
  totalBatches: number;
  totalLinesSent: number;
  store: StoreStats;
}

export interface SummaryStats {
  bytesProcessedPerSecond: number;
  linesProcessedPerSecond: number;
  totalBytesProcessed: number;
  totalLinesProcessed: number;
  execTime: number;
  queueTime: number;
  subqueries: number;
  totalEntriesReturned: number;
  splits: number;
  shards: number;
  totalPostFilterLines: number;
  totalStructuredMetadataBytesProcessed: number;
}

export interface QueryStats {
  summary: SummaryStats;
  querier: { store: StoreStats };
  ingester: IngesterStats;
  /** Caches the sources read through (the results cache is counted by the frontend). */
  cache: { chunk: CacheStats };
}

export function newStoreStats(): StoreStats {
  return {
    totalChunksRef: 0,
    totalChunksDownloaded: 0,
    chunksDownloadTime: 0,
    queryReferencedStructuredMetadata: false,
    chunk: {
      headChunkBytes: 0,
      headChunkLines: 0,
      decompressedBytes: 0,
      decompressedLines: 0,
      compressedBytes: 0,
      totalDuplicates: 0,
      postFilterLines: 0,
      headChunkStructuredMetadataBytes: 0,
      decompressedStructuredMetadataBytes: 0,
    },
    chunkRefsFetchTime: 0,
    congestionControlLatency: 0,
    pipelineWrapperFilteredLines: 0,
  };
}

export function newQueryStats(): QueryStats {
  return {
    summary: {
      bytesProcessedPerSecond: 0,
      linesProcessedPerSecond: 0,
      totalBytesProcessed: 0,
      totalLinesProcessed: 0,
      execTime: 0,
      queueTime: 0,
      subqueries: 0,
      totalEntriesReturned: 0,
      splits: 0,
      shards: 0,
      totalPostFilterLines: 0,
      totalStructuredMetadataBytesProcessed: 0,
    },
    querier: { store: newStoreStats() },
    ingester: {
      totalReached: 0,
      totalChunksMatched: 0,
      totalBatches: 0,
      totalLinesSent: 0,
      store: newStoreStats(),
    },
    cache: { chunk: newCacheStats() },
  };
}

/**
 * Loki's `Result.Merge` for the querier and ingester parts: adds every counter of `from` into
 * `into` (a flag is set when either has it). The summary is left to the caller, which
 * recomputes it from the merged totals (`computeSummary`).
 */
export function mergeQueryStats(into: QueryStats, from: QueryStats): QueryStats {
  addCounters(into.querier, from.querier);
  addCounters(into.ingester, from.ingester);
  addCounters(into.cache, from.cache);
  into.summary.queueTime += from.summary.queueTime;
  return into;
}

function addCounters(into: object, from: object): void {
  const target = into as Record<string, unknown>;
  for (const [key, value] of Object.entries(from)) {
    const current = target[key];
    if (typeof value === 'number' && typeof current === 'number') target[key] = current + value;
    else if (typeof value === 'boolean') target[key] = current === true || value;
    else if (
      value !== null &&
      typeof value === 'object' &&
      current !== null &&
      typeof current === 'object'
    )
      addCounters(current, value);
  }
}
