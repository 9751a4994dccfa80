import { MemChunk } from '@logsvc/chunk';
import { MergedCursor } from '@logsvc/ingester';
import type { EntryCursor, LogSource, SelectParams, SourceStream } from '@logsvc/logql';
import type { ChunkStore } from '@logsvc/storage';
import { CountingCursor } from './counting-cursor';

const elapsedNs = (since: bigint): number => Number(process.hrtime.bigint() - since);

/**
 * Entries from flushed chunks: the index gives each selected stream's chunk refs, the chunks
 * are downloaded (verified) and decoded, and a stream's chunks are merged into one cursor over
 * [fromNs, throughNs). Adds to `stats.querier.store`.
 */
export class StoreLogSource implements LogSource {
  constructor(private readonly store: ChunkStore) {}

  async select(params: SelectParams): Promise<SourceStream[]> {
    const { tenant, matchers, fromNs, throughNs, direction } = params;
    if (throughNs <= fromNs) return [];
    const stats = params.stats.querier.store;
    const refsStart = process.hrtime.bigint();
    // Chunk refs are inclusive at both ends; the query range excludes throughNs.
    const series = await this.store.getChunkRefs(tenant, matchers, fromNs, throughNs - 1n);
    stats.chunkRefsFetchTime += elapsedNs(refsStart);
    const refs = series.flatMap((s) => s.chunks);
    stats.totalChunksRef += refs.length;
    params.signal?.throwIfAborted();

    const downloadStart = process.hrtime.bigint();
    const data = await this.store.fetchChunks(tenant, refs);
    stats.chunksDownloadTime += elapsedNs(downloadStart);
    stats.totalChunksDownloaded += data.length;
    params.signal?.throwIfAborted();

    const chunk = stats.chunk;
    const countLines = (lines: number, bytes: number): void => {
      chunk.decompressedLines += lines;
      chunk.decompressedBytes += bytes;
    };
    const out: SourceStream[] = [];
    let i = 0;
    for (const s of series) {
      const cursors: EntryCursor[] = [];
      for (let n = 0; n < s.chunks.length; n++, i++) {
        chunk.compressedBytes += data[i].length;
        cursors.push(MemChunk.decode(data[i]).iterator(fromNs, throughNs, direction));
      }
      if (cursors.length === 0) continue;
      const merged = cursors.length === 1 ? cursors[0] : new MergedCursor(cursors, direction);
      out.push({ labels: s.labels, entries: new CountingCursor(merged, countLines) });
    }
    return out;
  }
}
