import { type CursorSummary, prefilterOptions, reportingTo } from '@logsvc/chunk';
import {
  type ChunkRead,
  type IngesterQueryClient,
  type IngesterReadStats,
  MergedCursor,
  newQueryStats as newIngesterQueryStats,
  type StreamQueryResult,
} from '@logsvc/ingester';
import type { ChunkStats, EntryCursor, LogSource, SelectParams, SourceStream } from '@logsvc/logql';
import { type ScanRange, type ScanResult, ScanResultCursor } from './chunk-scan';
import { ForwardingCursor } from './forwarding-cursor';
import { ChunkLoader, LazyChunkCursor } from './lazy-chunks';
import { POOL_DEFAULTS, PoolPayoff, scanInPool } from './pool-scan';
import type { ChunkScanPool } from './scan-pool';
import { ScanCountingCursor } from './scan-counting-cursor';

/** The scan range's needle when the prefilter is several literals (no pool search). */
const NO_NEEDLE = Buffer.alloc(0);

export interface IngesterLogSourceOptions {
  /**
   * Worker threads for queries with a line prefilter: the compressed blocks of the chunks in
   * memory are searched there. None (the default): on the event loop.
   */
  readonly pool?: ChunkScanPool | null;
  /** Fewer chunks with compressed blocks than this are searched on the event loop (default 4). */
  readonly minPoolChunks?: number;
  /** Nor less than this many compressed bytes (default 256 KiB). */
  readonly minPoolBytes?: number;
  /** Compressed bytes sent to a worker in one request (default 1 MiB). */
  readonly taskBytes?: number;
  /** Compressed bytes searched at once, two such batches ahead (default 4 MiB per worker). */
  readonly poolBatchBytes?: number;
  /** As `StoreLogSourceOptions.maxPoolMatchShare` (default 0.3) and `poolJudgeLines`. */
  readonly maxPoolMatchShare?: number;
  readonly poolJudgeLines?: number;
}

/**
 * Entries still in the ingesters (head and not yet removed flushed chunks), read through an
 * IngesterClient. Adds to `stats.ingester`: the ingesters reached and one batch per ingester,
 * the chunks matched, head chunk bytes/lines, and the lines sent. Empty when no ingester answers.
 *
 * With a line prefilter (`SelectParams.lineContains`) the ingester searches whole blocks for it,
 * each chunk read in two parts: its compressed blocks (counted as decompressed lines and bytes)
 * and its head block (counted as head chunk lines and bytes), in range, matched or not. With a
 * pool and enough compressed data, the blocks are searched in worker threads a bounded batch
 * at a time as the query reads them (by time for log queries, stream by stream otherwise), and
 * the head blocks on the event loop; the entries are the same either way.
 */
export class IngesterLogSource implements LogSource {
  private readonly minPoolChunks: number;
  private readonly minPoolBytes: number;
  private readonly taskBytes: number;

  constructor(
    private readonly client: IngesterQueryClient,
    private readonly options: IngesterLogSourceOptions = {},
  ) {
    this.minPoolChunks = options.minPoolChunks ?? POOL_DEFAULTS.minPoolChunks;
    this.minPoolBytes = options.minPoolBytes ?? POOL_DEFAULTS.minPoolBytes;
    this.taskBytes = options.taskBytes ?? POOL_DEFAULTS.taskBytes;
  }

  async select(params: SelectParams): Promise<SourceStream[]> {
    const { tenant, matchers, fromNs, throughNs, direction } = params;
    if (throughNs <= fromNs) return [];
    const found: IngesterReadStats = { ...newIngesterQueryStats(), ingestersReached: 0 };
    const prefilter = prefilterOptions(params);
    const { lineContains } = prefilter;
    const prefiltered = lineContains !== undefined || prefilter.lineContainsAny !== undefined;
    // Several literals (`|~ "a|b"`) prefilter on the event loop only: the pool searches one.
    const pool = lineContains === undefined ? null : (this.options.pool ?? null);
    const select = {
      matchers,
      fromNs,
      throughNs,
      direction,
      // The prefilter carries `transientLines` too (a metric query keeps no line past the next
      // entry: blocks go into reused buffers), also when it has no needle.
      ...(prefiltered ? { ...prefilter, split: true } : prefilter),
      ...(params.shard === undefined ? {} : { shard: params.shard }),
    };
    const results = await this.client.query(tenant, select, found);
    if (found.ingestersReached === 0) return [];
    const stats = params.stats.ingester;
    stats.totalReached += found.ingestersReached;
    stats.totalBatches += found.ingestersReached;
    stats.totalChunksMatched += found.totalChunksMatched;
    const chunk = stats.store.chunk;
    chunk.compressedBytes += found.compressedBytes;
    if (prefiltered && results.every((r) => r.chunks !== undefined)) {
      const needle = lineContains ?? NO_NEEDLE;
      const range: ScanRange = { fromNs, throughNs, direction, needle };
      return this.splitStreams(params, results, range, pool);
    }
    // Lines are counted as they are read (a limited query stops early), the first
    // `headChunkLines` the ingesters found as head lines, the rest as lines of closed chunks.
    const headLines = found.headChunkLines;
    let sent = 0;
    // Lines counted together (a count over block meta) that cross into the closed chunks' share
    // their bytes out by lines.
    const countLines = (lines: number, bytes: number): void => {
      stats.totalLinesSent += lines;
      const head = Math.min(lines, Math.max(0, headLines - sent));
      sent += lines;
      const headBytes = head === lines ? bytes : Math.round((bytes * head) / lines);
      chunk.headChunkLines += head;
      chunk.headChunkBytes += headBytes;
      chunk.decompressedLines += lines - head;
      chunk.decompressedBytes += bytes - headBytes;
    };
    const chunkStats = stats.store.chunk;
    return results.map((r) => ({
      labels: r.labels,
      entries: new SentCountingCursor(r.entries, countLines),
      stats: chunkStats,
    }));
  }

  /**
   * Streams over chunks read in parts: each chunk's blocks then its head block, all of a
   * stream's parts merged oldest first (the order the chunk's own cursor merges them in).
   */
  private splitStreams(
    params: SelectParams,
    results: readonly StreamQueryResult[],
    range: ScanRange,
    pool: ChunkScanPool | null,
  ): SourceStream[] {
    const stats = params.stats.ingester;
    const chunk = stats.store.chunk;
    const parts: ChunkRead[] = [];
    for (const r of results) for (const c of r.chunks!) if (c.blocks !== null) parts.push(c);
    let blocksBytes = 0;
    for (const p of parts) blocksBytes += p.blocksBytes;
    const onPool =
      pool !== null && parts.length >= this.minPoolChunks && blocksBytes >= this.minPoolBytes;
    const loader = onPool ? this.poolLoader(params, parts, range, pool, chunk) : null;
    const blocksOf = new Map<ChunkRead, number>(parts.map((p, i) => [p, i]));

    const decompressed = (lines: number, bytes: number): void => {
      chunk.decompressedLines += lines;
      chunk.decompressedBytes += bytes;
    };
    const head = (lines: number, bytes: number): void => {
      chunk.headChunkLines += lines;
      chunk.headChunkBytes += bytes;
    };
    const out: SourceStream[] = [];
    for (const r of results) {
      const cursors: EntryCursor[] = [];
      for (const c of r.chunks!) {
        if (c.blocks !== null) {
          if (loader === null) {
            cursors.push(new ScanCountingCursor(c.blocks, decompressed));
          } else {
            const blocks = c.blocks;
            const startNs = range.direction === 'forward' ? c.blocksMinTs : c.blocksMaxTs;
            const open = (res: ScanResult | null): EntryCursor =>
              res === null
                ? new ScanCountingCursor(blocks, decompressed)
                : new ScanResultCursor(res);
            cursors.push(new LazyChunkCursor(loader, blocksOf.get(c)!, startNs, open));
          }
        }
        if (c.head !== null) cursors.push(new ScanCountingCursor(c.head, head));
      }
      if (cursors.length === 0) continue;
      const merged = cursors.length === 1 ? cursors[0] : new MergedCursor(cursors, range.direction);
      out.push({ labels: r.labels, entries: new LinesSentCursor(merged, stats), stats: chunk });
    }
    return out;
  }

  /**
   * Loads the chunks' blocks as the query reaches them, searched on the pool a bounded batch
   * at a time: in time order for log queries, which merge all streams by time, and stream by
   * stream for metric queries, which read one stream after another.
   */
  private poolLoader(
    params: SelectParams,
    parts: readonly ChunkRead[],
    range: ScanRange,
    pool: ChunkScanPool,
    chunk: ChunkStats,
  ): ChunkLoader<ScanResult | null> {
    const order = parts.map((_, i) => i);
    if (params.limit !== undefined) {
      const key = (i: number): bigint =>
        range.direction === 'forward' ? parts[i].blocksMinTs : -parts[i].blocksMaxTs;
      order.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    }
    const payoff = new PoolPayoff(
      this.options.maxPoolMatchShare ?? 0.3,
      this.options.poolJudgeLines ?? 20_000,
    );
    const fetchBatch = async (indices: readonly number[]): Promise<(ScanResult | null)[]> => {
      params.signal?.throwIfAborted();
      let bytes = 0;
      for (const i of indices) bytes += parts[i].blocksBytes;
      // A small batch is searched here: a round trip to a worker would cost more.
      if ((indices.length < this.minPoolChunks && bytes < this.minPoolBytes) || !payoff.worthIt) {
        return indices.map(() => null);
      }
      // Encoded only now, a batch at a time: the query holds no copy of all memory at once.
      const data = indices.map((i) => parts[i].encodeBlocks!());
      const scanned: (ScanResult | undefined)[] = new Array(indices.length);
      await scanInPool(
        pool,
        indices.map((_, k) => k),
        data,
        range,
        scanned,
        chunk,
        { taskBytes: this.taskBytes, budget: Infinity, signal: params.signal, payoff },
      );
      // Chunks the pool did not take (it stopped paying) are read here; `scanned` has holes.
      return indices.map((_, k) => scanned[k] ?? null);
    };
    const limits = {
      batchChunks: 256,
      batchBytes: this.options.poolBatchBytes ?? pool.size * 4 * 1024 * 1024,
      readAhead: 2,
    };
    return new ChunkLoader(order, (i) => parts[i].blocksBytes, limits, fetchBatch);
  }
}

/** Counts the lines an ingester sends as they are read; passes lazy reads through. */
class LinesSentCursor extends ForwardingCursor {
  constructor(
    inner: EntryCursor,
    private readonly stats: { totalLinesSent: number },
  ) {
    super(inner);
  }

  next(): boolean {
    if (!this.inner.next()) return false;
    this.stats.totalLinesSent++;
    return true;
  }

  wait(): Promise<void> | null {
    return this.inner.wait?.() ?? null;
  }
}

/** Counts each line an ingester sent as it is read, with its bytes. */
class SentCountingCursor extends ForwardingCursor {
  constructor(
    inner: EntryCursor,
    private readonly count: (lines: number, bytes: number) => void,
  ) {
    super(inner);
  }

  next(): boolean {
    if (!this.inner.next()) return false;
    this.count(1, this.inner.lineEnd - this.inner.lineStart);
    return true;
  }

  /** The stream's runs; the lines a count reads of them count as sent. */
  summarize(): CursorSummary | null {
    const summary = this.inner.summarize?.() ?? null;
    return summary === null ? null : reportingTo(summary, this.count);
  }

  wait(): Promise<void> | null {
    return this.inner.wait?.() ?? null;
  }
}
