import { type IngesterClient, newQueryStats as newIngesterQueryStats } from '@logsvc/ingester';
import type { LogSource, SelectParams, SourceStream } from '@logsvc/logql';
import { CountingCursor } from './counting-cursor';

/**
 * Entries still in the ingesters (head and not yet removed flushed chunks), read through an
 * IngesterClient. Adds to `stats.ingester`: the ingesters reached and one batch per ingester,
 * the chunks matched, head chunk bytes/lines, and the lines sent. Empty when no ingester answers.
 */
export class IngesterLogSource implements LogSource {
  constructor(private readonly client: IngesterClient) {}

  async select(params: SelectParams): Promise<SourceStream[]> {
    const { tenant, matchers, fromNs, throughNs, direction } = params;
    if (throughNs <= fromNs) return [];
    const found = { ...newIngesterQueryStats(), ingestersReached: 0 };
    const select = { matchers, fromNs, throughNs, direction };
    const results = await this.client.query(tenant, select, found);
    if (found.ingestersReached === 0) return [];
    const stats = params.stats.ingester;
    stats.totalReached += found.ingestersReached;
    stats.totalBatches += found.ingestersReached;
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
