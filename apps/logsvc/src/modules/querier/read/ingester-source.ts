import { newQueryStats as newIngesterQueryStats } from '@logsvc/ingester';
import type { LogSource, SelectParams, SourceStream } from '@logsvc/logql';
import type { LocalIngesterClient } from '@logsvc/ingester';
import { CountingCursor } from './counting-cursor';

/**
 * Entries still in this process's ingester (head and not yet removed flushed chunks). Adds to
 * `stats.ingester`: one ingester reached and one batch per query, the chunks matched, head
 * chunk bytes/lines, and the lines sent. Empty when the process runs no ingester.
 */
export class IngesterLogSource implements LogSource {
  constructor(private readonly local: LocalIngesterClient) {}

  async select(params: SelectParams): Promise<SourceStream[]> {
    const ingester = this.local.ingester;
    const { tenant, matchers, fromNs, throughNs, direction } = params;
    if (!ingester || throughNs <= fromNs) return [];
    const found = newIngesterQueryStats();
    const results = ingester.query(tenant, matchers, fromNs, throughNs, direction, found);
    const stats = params.stats.ingester;
    stats.totalReached++;
    stats.totalBatches++;
    stats.totalChunksMatched += found.totalChunksMatched;
    const chunk = stats.store.chunk;
    chunk.compressedBytes += found.compressedBytes;
    chunk.headChunkBytes += found.headChunkBytes;
    chunk.headChunkLines += found.headChunkLines;
    const headLines = found.headChunkLines;
    let sent = 0;
    // Lines from closed (compressed) chunks count as decompressed; the head's are counted above.
    const countLines = (lines: number, bytes: number): void => {
      stats.totalLinesSent += lines;
      const before = sent;
      sent += lines;
      const fromClosed = Math.max(0, sent - Math.max(headLines, before));
      if (fromClosed > 0) {
        chunk.decompressedLines += fromClosed;
        chunk.decompressedBytes += lines > 0 ? Math.round((bytes * fromClosed) / lines) : 0;
      }
    };
    return results.map((r) => ({
      labels: r.labels,
      entries: new CountingCursor(r.entries, countLines),
    }));
  }
}
