import type { QueryStats } from '@logsvc/logql';

/**
 * Fills `stats.summary` as Loki's `ComputeSummary` does: totals over the querier's store and the
 * ingesters (decompressed plus head-chunk bytes and lines), rates per second of `execTime`.
 */
export function computeSummary(
  stats: QueryStats,
  execTimeSeconds: number,
  entriesReturned: number,
): void {
  const q = stats.querier.store.chunk;
  const i = stats.ingester.store.chunk;
  const s = stats.summary;
  s.totalBytesProcessed =
    q.decompressedBytes + q.headChunkBytes + i.decompressedBytes + i.headChunkBytes;
  s.totalLinesProcessed =
    q.decompressedLines + q.headChunkLines + i.decompressedLines + i.headChunkLines;
  s.totalStructuredMetadataBytesProcessed =
    q.decompressedStructuredMetadataBytes +
    q.headChunkStructuredMetadataBytes +
    i.decompressedStructuredMetadataBytes +
    i.headChunkStructuredMetadataBytes;
  s.totalPostFilterLines = q.postFilterLines + i.postFilterLines;
  s.execTime = execTimeSeconds;
  s.bytesProcessedPerSecond =
    execTimeSeconds > 0 ? Math.trunc(s.totalBytesProcessed / execTimeSeconds) : 0;
  s.linesProcessedPerSecond =
    execTimeSeconds > 0 ? Math.trunc(s.totalLinesProcessed / execTimeSeconds) : 0;
  s.totalEntriesReturned = entriesReturned;
  if (s.subqueries === 0) s.subqueries = 1;
}
