/**
 * Counters shaped like one entry of Loki's `stats.cache` (`stats.cache.result` for the results
 * cache): the `Cache` message of pkg/logqlmodel/stats/stats.proto, with its JSON names.
 */
export interface CacheStats {
  entriesFound: number;
  entriesRequested: number;
  entriesStored: number;
  bytesReceived: number;
  /** Loki counts this only for the chunk cache: it stays 0 for the results cache. */
  bytesSent: number;
  requests: number;
  /** Nanoseconds spent in fetches. */
  downloadTime: number;
  /** Nanoseconds of query range served from the cache. */
  queryLengthServed: number;
}

export function newCacheStats(): CacheStats {
  return {
    entriesFound: 0,
    entriesRequested: 0,
    entriesStored: 0,
    bytesReceived: 0,
    bytesSent: 0,
    requests: 0,
    downloadTime: 0,
    queryLengthServed: 0,
  };
}

/** Loki's `Cache.Merge`: adds `from` into `into`. */
export function mergeCacheStats(into: CacheStats, from: CacheStats): CacheStats {
  into.entriesFound += from.entriesFound;
  into.entriesRequested += from.entriesRequested;
  into.entriesStored += from.entriesStored;
  into.bytesReceived += from.bytesReceived;
  into.bytesSent += from.bytesSent;
  into.requests += from.requests;
  into.downloadTime += from.downloadTime;
  into.queryLengthServed += from.queryLengthServed;
  return into;
}
