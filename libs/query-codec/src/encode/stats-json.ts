import { type CacheStats, newCacheStats } from '@logsvc/api';
import type { ChunkStats, QueryStats, StoreStats } from '@logsvc/logql';

const CACHE_NAMES = [
  'chunk',
  'index',
  'result',
  'statsResult',
  'volumeResult',
  'seriesResult',
  'labelResult',
  'instantMetricResult',
] as const;

function store(s: StoreStats) {
  return {
    totalChunksRef: s.totalChunksRef,
    totalChunksDownloaded: s.totalChunksDownloaded,
    chunksDownloadTime: Math.round(s.chunksDownloadTime),
    queryReferencedStructuredMetadata: s.queryReferencedStructuredMetadata,
    chunk: chunk(s.chunk),
    chunkRefsFetchTime: Math.round(s.chunkRefsFetchTime),
    congestionControlLatency: Math.round(s.congestionControlLatency),
    pipelineWrapperFilteredLines: s.pipelineWrapperFilteredLines,
  };
}

function chunk(c: ChunkStats) {
  return {
    headChunkBytes: c.headChunkBytes,
    headChunkLines: c.headChunkLines,
    decompressedBytes: c.decompressedBytes,
    decompressedLines: c.decompressedLines,
    compressedBytes: c.compressedBytes,
    totalDuplicates: c.totalDuplicates,
    postFilterLines: c.postFilterLines,
    headChunkStructuredMetadataBytes: c.headChunkStructuredMetadataBytes,
    decompressedStructuredMetadataBytes: c.decompressedStructuredMetadataBytes,
  };
}

/**
 * `data.stats` in the layout Loki sends (its `stats.proto`, keys in Loki's order), plus the
 * fields of the spec's older layout where they are only additions: flat chunk counters in
 * `ingester`, and a top-level `store` group whose `chunksDownloadTime` is in seconds.
 */
export function statsJson(stats: QueryStats, resultCache?: CacheStats) {
  const q = stats.querier.store;
  const i = stats.ingester;
  return {
    summary: { ...stats.summary },
    querier: { store: store(q) },
    ingester: {
      totalReached: i.totalReached,
      totalChunksMatched: i.totalChunksMatched,
      totalBatches: i.totalBatches,
      totalLinesSent: i.totalLinesSent,
      store: store(i.store),
      compressedBytes: i.store.chunk.compressedBytes,
      decompressedBytes: i.store.chunk.decompressedBytes,
      decompressedLines: i.store.chunk.decompressedLines,
      headChunkBytes: i.store.chunk.headChunkBytes,
      headChunkLines: i.store.chunk.headChunkLines,
      totalDuplicates: i.store.chunk.totalDuplicates,
    },
    cache: Object.fromEntries(CACHE_NAMES.map((n) => [n, cacheStatsOf(n, stats, resultCache)])),
    index: {
      totalChunks: q.totalChunksRef,
      postFilterChunks: q.totalChunksRef,
      shardsDuration: 0,
      usedBloomFilters: false,
    },
    store: {
      compressedBytes: q.chunk.compressedBytes,
      decompressedBytes: q.chunk.decompressedBytes,
      decompressedLines: q.chunk.decompressedLines,
      chunksDownloadTime: q.chunksDownloadTime / 1e9,
      totalChunksRef: q.totalChunksRef,
      totalChunksDownloaded: q.totalChunksDownloaded,
      totalDuplicates: q.chunk.totalDuplicates,
    },
  };
}

/** The counters of one of Loki's caches: the results cache counted by the frontend, the chunk
 * cache by the sources; the others do not exist here and stay 0. */
function cacheStatsOf(
  name: (typeof CACHE_NAMES)[number],
  stats: QueryStats,
  resultCache: CacheStats | undefined,
): CacheStats {
  if (name === 'result' && resultCache) return resultCache;
  if (name === 'chunk') return stats.cache.chunk;
  return newCacheStats();
}
