import { inShard, type Labels } from '@logsvc/api';
import { type CursorOptions, type Direction, prefilterOptions } from '@logsvc/chunk';
import { type ChunkDecoder, chunkDecoder } from './chunk-decoder';
import { MergedCursor } from '@logsvc/ingester';
import type { ChunkStats, EntryCursor, LogSource, SelectParams, SourceStream } from '@logsvc/logql';
import { linePrefilter, POOL_DEFAULTS, PoolPayoff, scanInPool } from './pool-scan';
import { ScanCountingCursor } from './scan-counting-cursor';
import type { ChunkRef } from '@logsvc/storage';
import type { StoreReader } from './store-reader';
import { type ScanRange, type ScanResult, ScanResultCursor } from './chunk-scan';
import { ChunkLoader, LazyChunkCursor } from './lazy-chunks';
import { streamCursorOptions } from './metadata-pushdown';
import type { ChunkScanPool } from './scan-pool';

const elapsedNs = (since: bigint): number => Number(process.hrtime.bigint() - since);

export interface StoreLogSourceOptions {
  /**
   * Worker threads for queries with a line prefilter (`SelectParams.lineContains`) over many
   * chunks; none (the default): always read on the event loop.
   */
  readonly pool?: ChunkScanPool | null;
  /** Fewer chunks than this are read on the event loop: a round trip costs more (default 4). */
  readonly minPoolChunks?: number;
  /** Nor less than this many compressed bytes (default 256 KiB). */
  readonly minPoolBytes?: number;
  /** Compressed bytes of chunks sent to a worker in one request (default 1 MiB). */
  readonly taskBytes?: number;
  /**
   * Once the pool found more matches than this per line scanned (over its first 20 000
   * lines), the query's remaining chunks are read on the event loop (default 0.3): copying
   * most lines back costs more than the workers save.
   */
  readonly maxPoolMatchShare?: number;
  /** Lines the pool scans before that is judged (default 20 000). */
  readonly poolJudgeLines?: number;
  /**
   * Log queries: chunks fetched at once as the query reads them (default 16; on the pool 256,
   * bounded by `poolBatchBytes`).
   */
  readonly lazyBatchSize?: number;
  /**
   * Log queries searched on the pool: compressed bytes fetched and searched at once (default
   * 4 MiB per worker), with two such batches ahead, so the workers stay busy.
   */
  readonly poolBatchBytes?: number;
  /** Turns fetched bytes into chunks (default: this thread's, with its block cache). */
  readonly decoder?: ChunkDecoder;
}

/**
 * Entries from flushed chunks: the index gives each selected stream's chunk refs, the chunks
 * are downloaded (verified) and decoded, and a stream's chunks are merged into one cursor over
 * [fromNs, throughNs). Adds to `stats.querier.store`; `decompressedLines/Bytes` count every
 * line in range of the blocks read, whether the line filter kept it or not.
 *
 * Log queries (`SelectParams.limit` set), and queries with a line prefilter when there is a
 * pool, fetch chunks only as the query reads them (see `lazyStreams`): a small `limit` over a
 * long range reads a few chunks, and a metric query holds a few batches at a time. With a
 * prefilter and a pool, each batch is decoded and searched in worker threads and only the
 * matching entries come back (unless most lines match: see `maxPoolMatchShare`). Metric
 * queries without a prefilter or without a pool fetch all chunks at once and decode them on
 * the event loop as the query reads them. All ways give the same entries.
 */
export class StoreLogSource implements LogSource {
  private readonly minPoolChunks: number;
  private readonly minPoolBytes: number;
  private readonly taskBytes: number;
  private readonly lazyBatchSize: number;
  private readonly decoder: ChunkDecoder;

  constructor(
    private readonly store: StoreReader,
    private readonly options: StoreLogSourceOptions = {},
  ) {
    this.minPoolChunks = options.minPoolChunks ?? POOL_DEFAULTS.minPoolChunks;
    this.minPoolBytes = options.minPoolBytes ?? POOL_DEFAULTS.minPoolBytes;
    this.taskBytes = options.taskBytes ?? POOL_DEFAULTS.taskBytes;
    this.lazyBatchSize = Math.max(1, options.lazyBatchSize ?? 16);
    this.decoder = options.decoder ?? chunkDecoder;
  }

  async select(params: SelectParams): Promise<SourceStream[]> {
    const { tenant, matchers, fromNs, throughNs, direction } = params;
    if (throughNs <= fromNs) return [];
    const stats = params.stats.querier.store;
    const refsStart = process.hrtime.bigint();
    // Chunk refs are inclusive at both ends; the query range excludes throughNs.
    const indexed = await this.store.getChunkRefs(tenant, matchers, fromNs, throughNs - 1n);
    const shard = params.shard;
    const series = shard === undefined ? indexed : indexed.filter((s) => inShard(s.labels, shard));
    stats.chunkRefsFetchTime += elapsedNs(refsStart);
    const refs = series.flatMap((s) => s.chunks);
    stats.totalChunksRef += refs.length;
    params.signal?.throwIfAborted();
    // Log queries, and metric queries the pool searches, read chunks as the query consumes them.
    const prefilter = linePrefilter(params) !== undefined;
    if (params.limit !== undefined || (prefilter && (this.options.pool ?? null) !== null)) {
      return this.lazyStreams(params, series, refs);
    }

    const downloadStart = process.hrtime.bigint();
    const data = await this.store.fetchChunks(tenant, refs, undefined, params.stats.cache.chunk);
    stats.chunksDownloadTime += elapsedNs(downloadStart);
    stats.totalChunksDownloaded += data.length;
    params.signal?.throwIfAborted();

    const chunk = stats.chunk;
    let compressed = 0;
    for (const d of data) compressed += d.length;
    chunk.compressedBytes += compressed;

    // Without a pool, or without a prefilter: every chunk is read here as the query reads it.
    // `lineContainsAny` only the cursors here search; the pool is given `lineContains` alone.
    const options = prefilterOptions(params);
    const out: SourceStream[] = [];
    let i = 0;
    for (const s of series) {
      const cursors: EntryCursor[] = [];
      const streamOptions = streamCursorOptions(options, s.labels, params.metadataEquals);
      for (let n = 0; n < s.chunks.length; n++, i++) {
        cursors.push(
          new ScanCountingCursor(
            this.decoder
              .decode(data[i], refs[i].key)
              .iterator(fromNs, throughNs, direction, streamOptions),
            decompressed(chunk),
          ),
        );
      }
      if (cursors.length === 0) continue;
      const merged = cursors.length === 1 ? cursors[0] : new MergedCursor(cursors, direction);
      out.push({ labels: s.labels, entries: merged });
    }
    return out;
  }

  /**
   * A log query's streams over chunks fetched as the query reads them: each chunk's cursor
   * waits for its chunk when the stream's merge reaches the chunk's first entry (in the query's
   * direction); the loader fetches it with the next chunks in time order, a batch at a time.
   * With a line prefilter and a batch large enough, the batch is searched on the pool.
   */
  private lazyStreams(
    params: SelectParams,
    series: readonly { labels: Labels; chunks: readonly ChunkRef[] }[],
    refs: readonly ChunkRef[],
  ): SourceStream[] {
    const { tenant, fromNs, throughNs, direction } = params;
    const stats = params.stats.querier.store;
    const chunk = stats.chunk;
    const lineContains = linePrefilter(params);
    const options = prefilterOptions(params);
    const pool = lineContains === undefined ? null : (this.options.pool ?? null);
    const range: ScanRange | null =
      lineContains === undefined ? null : { fromNs, throughNs, direction, needle: lineContains };
    const payoff = new PoolPayoff(
      this.options.maxPoolMatchShare ?? 0.3,
      this.options.poolJudgeLines ?? 20_000,
    );

    const fetchBatch = async (indices: readonly number[]): Promise<(Buffer | ScanResult)[]> => {
      params.signal?.throwIfAborted();
      const started = process.hrtime.bigint();
      const data = await this.store.fetchChunks(
        tenant,
        indices.map((i) => refs[i]),
        undefined,
        params.stats.cache.chunk,
      );
      stats.chunksDownloadTime += elapsedNs(started);
      stats.totalChunksDownloaded += data.length;
      let compressed = 0;
      for (const d of data) compressed += d.length;
      chunk.compressedBytes += compressed;
      params.signal?.throwIfAborted();
      if (
        pool === null ||
        range === null ||
        data.length < this.minPoolChunks ||
        compressed < this.minPoolBytes ||
        !payoff.worthIt
      ) {
        return data;
      }
      const scanned: (ScanResult | undefined)[] = new Array(data.length);
      const all = data.map((_, k) => k);
      await scanInPool(pool, all, data, range, scanned, chunk, {
        taskBytes: this.taskBytes,
        budget: Infinity,
        signal: params.signal,
        payoff,
      });
      return data.map((d, k) => scanned[k] ?? d);
    };
    const limits =
      pool === null
        ? { batchChunks: this.lazyBatchSize, batchBytes: Infinity, readAhead: 1 }
        : {
            batchChunks: this.options.lazyBatchSize ?? 256,
            batchBytes: this.options.poolBatchBytes ?? pool.size * 4 * 1024 * 1024,
            readAhead: 2,
          };
    // A log query merges all streams by time; a metric query reads them one after another.
    const order = params.limit !== undefined ? timeOrder(refs, direction) : refs.map((_, i) => i);
    const loader = new ChunkLoader(order, (i) => refs[i].size, limits, fetchBatch);
    const open = (c: Buffer | ScanResult, key: string, opts: CursorOptions): EntryCursor =>
      c instanceof Uint8Array
        ? new ScanCountingCursor(
            this.decoder.decode(c, key).iterator(fromNs, throughNs, direction, opts),
            decompressed(chunk),
          )
        : new ScanResultCursor(c);

    const out: SourceStream[] = [];
    let i = 0;
    for (const s of series) {
      const cursors: EntryCursor[] = [];
      const streamOptions = streamCursorOptions(options, s.labels, params.metadataEquals);
      for (const ref of s.chunks) {
        const startNs = direction === 'forward' ? ref.fromNs : ref.throughNs;
        cursors.push(
          new LazyChunkCursor(loader, i++, startNs, (c) => open(c, ref.key, streamOptions)),
        );
      }
      if (cursors.length === 0) continue;
      out.push({ labels: s.labels, entries: new MergedCursor(cursors, direction) });
    }
    return out;
  }
}

/** Chunk indices in the query's time order: by first entry forward, by last entry backward. */
function timeOrder(refs: readonly ChunkRef[], direction: Direction): number[] {
  const order = refs.map((_, i) => i);
  if (direction === 'forward') order.sort((a, b) => cmp(refs[a].fromNs, refs[b].fromNs));
  else order.sort((a, b) => cmp(refs[b].throughNs, refs[a].throughNs));
  return order;
}

/** Adds scanned lines and bytes to the stats' decompressed counters. */
function decompressed(stats: ChunkStats): (lines: number, bytes: number) => void {
  return (lines, bytes) => {
    stats.decompressedLines += lines;
    stats.decompressedBytes += bytes;
  };
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
