import { crc32 } from '@node-rs/crc32';
import type { Labels } from '@logsvc/api';
import { decodeBlockPayload, encodeBlockPayload } from './block';
import type { BlockRunCache } from './block-run-cache';
import { blockMayMatch } from './block-prune';
import { decodeChunk, encodeChunk, type StoredBlock } from './chunk-format';
import { type ColumnarLayout, decodeColumnarBlock } from './columnar-block';
import {
  type ColumnarStoredBlock,
  decodeColumnarChunk,
  encodeColumnarChunk,
  isColumnarChunk,
} from './columnar-format';
import {
  compressCutBlock,
  compressAsync,
  decompress,
  decompressesInPlace,
  decompressInto,
  maxCompressedLength,
} from './codecs';
import {
  type ChunkCursor,
  type CursorOptions,
  type Direction,
  MergeCursor,
  type RunSource,
} from './cursor';
import type { EntryRun } from './entry-run';
import { ChunkFormatError, ReadOnlyChunkError } from './errors';
import { columnarRunMeta } from './columnar-times';
import { payloadPrefix, rowBlockTimes } from './row-block-times';
import { loadedRunMeta, type RunMeta, runTimesOf } from './run-summary';
import { decodeHeadRun, encodeHeadRun, isHeadRun } from './head-snapshot';
import { BlockSpill, type SpilledBytes } from './block-spill';
import { type BlockTimes, blockTimesMeta, TimesArena } from './block-times';
import {
  inSharedMemory,
  shareBlocks,
  sharedBlock,
  type SharedBlocks,
  sharedSymbols,
} from './shared-blocks';
import { HeadBlock } from './head-block';
import {
  BLOCKS_PER_CHUNK_WITHOUT_TARGET,
  type ChunkEncoding,
  type ChunkOptions,
  resolveChunkOptions,
} from './options';
import { giveScratch, ScratchPayloadRun, takeScratch } from './line-scratch';
import { SlabPool } from './slab-pool';
import { SymbolTable } from './symbols';

/**
 * On how many sides a block reaches outside a reader's range: the reader of the range next to
 * it on such a side (another split of the query) wants it too (see `BlockRunCache.load`).
 */
function sidesOutside(block: StoredBlock, fromNs: bigint, throughNs: bigint): 0 | 1 | 2 {
  const before = block.minTs < fromNs ? 1 : 0;
  const after = block.maxTs >= throughNs ? 1 : 0;
  return (before + after) as 0 | 1 | 2;
}

/** Uncompressed block payloads live until their compression is done: cut them from slabs. */
const PAYLOAD_POOL = new SlabPool();

/**
 * A cut block. Its compression runs on the libuv pool; until it is done, `payload` holds the
 * uncompressed bytes (which readers decode directly) and `data` is empty.
 */
interface CutBlock extends StoredBlock {
  data: Buffer;
  crc: number;
  payload: Buffer | null;
  /** A block of a columnar chunk (read-only): its columns. */
  readonly layout?: ColumnarLayout;
  /**
   * A block cut here (or a snapshot's copy of one): its timestamps and line lengths, in memory
   * whether its bytes are or not, so a count over time never reads them (see `BlockTimes`).
   */
  readonly times?: BlockTimes;
  /**
   * Set once its compressed bytes were written to the spill (`data` is empty then); in a
   * snapshot's copy, where the original's bytes are.
   */
  spill?: SpilledBytes;
  /**
   * A snapshot's copy of a spilled block (one query's, short-lived): keeps the bytes once read,
   * so its times and its entries do not read them twice.
   */
  keepRead?: boolean;
  /**
   * Set on the blocks of a chunk decoded with `checkBlocksOnRead`: the block's checksum is
   * checked when its bytes are first read (`blockData`), not before.
   */
  crcPending?: boolean;
}

/** Throws ChunkFormatError unless a block's bytes match its checksum. */
function checkBlock(b: CutBlock): void {
  if (crc32(b.data) !== b.crc) throw new ChunkFormatError('chunk block checksum mismatch');
  b.crcPending = false;
}

/**
 * A decoded chunk's block as a block of this chunk, written out field by field: an object
 * spread of the decoder's block measured 2× slower to build 100 chunks' blocks and left them
 * slower to read (a log query's newest entries from 100 flushed chunks: 11.5 ms → 5.5 ms).
 */
function storedBlock(
  b: StoredBlock & { readonly layout?: ColumnarLayout },
  crcPending = false,
): CutBlock {
  return {
    minTs: b.minTs,
    maxTs: b.maxTs,
    entries: b.entries,
    rawBytes: b.rawBytes,
    uncompressedLength: b.uncompressedLength,
    data: b.data,
    crc: b.crc,
    layout: b.layout,
    payload: null,
    crcPending,
  };
}

/** A block's compressed bytes, read back from the spill when they were written there. */
function blockData(b: CutBlock): Buffer {
  if (b.crcPending === true) checkBlock(b);
  if (b.spill === undefined) return b.data;
  const data = BlockSpill.read(b.spill);
  if (b.keepRead === true) {
    b.data = data;
    b.spill = undefined;
  }
  return data;
}

/**
 * A block's compressed bytes for one decompression into new memory: a spilled block's are read
 * into the thread's scratch buffer (not kept: the decoded block does not refer to them), also
 * for a snapshot's copy (`keepRead`), which keeps bytes only for a read that needs them kept.
 * Its timestamps come with the snapshot, so a query rarely reads a block's bytes twice; keeping
 * them allocated a fresh Buffer per block, ≈ 16 MB per `|=` count over the bench's ingesters.
 */
function dataToDecompress(b: CutBlock, encoding: ChunkEncoding): Buffer {
  // Without compression the decoded block is these bytes: they must be its own.
  if (b.spill === undefined || encoding === 'none') return blockData(b);
  return BlockSpill.readTransient(b.spill);
}

/** The blocks with their compressed bytes in memory (copies of spilled ones, read back). */
function withData(blocks: readonly CutBlock[]): readonly CutBlock[] {
  if (!blocks.some((b) => b.spill !== undefined)) return blocks;
  return blocks.map((b) => (b.spill === undefined ? b : { ...b, data: blockData(b) }));
}

const NO_DATA = Buffer.alloc(0);

/** The most recently cut block, kept so appends can reject duplicates of its entries. */
interface PreviousBlock {
  readonly block: CutBlock;
  /** Null until first needed in a restored chunk (its block is compressed already). */
  sortedTs: BigInt64Array | null;
  /** Decompressed on the first timestamp match only. */
  run: EntryRun | null;
}

/** A chunk's entries as two reads: its cut blocks and its head block (see `MemChunk.split`). */
export interface ChunkSplit {
  readonly blocks: ChunkCursor | null;
  /** Time range of the cut blocks (0n when none). */
  readonly blocksMinTs: bigint;
  readonly blocksMaxTs: bigint;
  /** Compressed bytes of the cut blocks (uncompressed for one still compressing). */
  readonly blocksBytes: number;
  /**
   * The bytes of a read-only chunk holding the same blocks, to decode elsewhere; made when
   * called (later appends and cuts do not change it). Null when no block is cut.
   */
  readonly encodeBlocks: (() => Buffer) | null;
  readonly head: ChunkCursor | null;
}

/**
 * A chunk's entries as bytes taken at one moment, to rebuild a read-only copy of it in another
 * thread (`MemChunk.fromSnapshot`) that reads and counts exactly as the chunk did then.
 */
export interface ChunkSnapshot {
  /**
   * The cut blocks, still compressed: as chunk bytes, or (from `snapshot`) as views of shared
   * memory that a worker thread reads without a copy; null when none is cut.
   */
  readonly blocks: Buffer | SharedBlocks | null;
  /**
   * The head block's entries: a head run (`encodeHeadRun`) when they arrived in time order, else
   * chunk bytes of one uncompressed block; null when empty.
   */
  readonly head: Buffer | null;
  /**
   * What must stay reachable until every reader of the snapshot is done: the blocks whose bytes
   * are still in the spill (`SharedBlocks.spilled`), so their spill file stays open. Not part of
   * what goes to another thread.
   */
  readonly retain?: readonly object[];
}

/** A chunk as a WAL checkpoint holds it (see `MemChunk.checkpointParts`). */
export interface ChunkCheckpointParts {
  /** Chunk bytes of the cut blocks (as `encode()` would give them without the head); null: none. */
  readonly blocks: Buffer | null;
  /** The head block's entries, uncompressed, as a head run. */
  readonly head: Buffer;
}

/**
 * One stream's entries for a span of time: compressed blocks plus an unordered head block.
 * Appends may arrive in any time order; iteration yields timestamp order, entries with equal
 * timestamps in insertion order (the reverse backward).
 */
export class MemChunk {
  readonly options: ChunkOptions;
  private symbols = new SymbolTable();
  private head: HeadBlock;
  private blocks: CutBlock[] = [];
  /** Blocks whose compression has not finished yet, and their uncompressed bytes. */
  private pendingBlocks = 0;
  private pendingBytes = 0;
  private previous: PreviousBlock | null = null;
  private readOnly = false;
  /** Decoded from a columnar chunk: its blocks carry their columns' layout. */
  private columnar = false;
  /** Where a read-only chunk keeps its decoded blocks for later readers (see `decode`). */
  private blockCache: { readonly cache: BlockRunCache; readonly key: string } | null = null;
  /**
   * The head block just cut, waiting to be emptied and reused on the next append (kept out of
   * the way until then, so a chunk closed after its cut holds no empty buffers).
   */
  private cutHead: HeadBlock | null = null;
  private blockEntries = 0;
  private blockRawBytes = 0;
  /** Where the line of the last successful append is stored (see `lastLineBuffer`). */
  private lastBuffer: Buffer = NO_DATA;
  private lastStart = 0;
  private blockCompressedBytes = 0;
  /** The cut blocks' side copies of their times (`BlockTimes`), back to back. */
  private readonly times = new TimesArena();

  /**
   * `symbols`: the table of decoded blocks (decode and restore pass it); `head`: a head block
   * over that table to start with (restoreParts passes it).
   */
  constructor(opts?: Partial<ChunkOptions>, symbols?: SymbolTable, head?: HeadBlock) {
    this.options = resolveChunkOptions(opts);
    if (symbols !== undefined) this.symbols = symbols;
    this.head = head ?? new HeadBlock(this.symbols);
  }

  /**
   * Parses chunk bytes into a read-only chunk; throws ChunkFormatError on any corruption. With
   * `blockCache`, the blocks its readers decode are kept there for the next readers, under
   * `cacheKey` (the name of these immutable bytes, e.g. their object key) and the block's
   * number, so a later decode of the same bytes finds them too.
   */
  static decode(
    buf: Buffer,
    options: {
      blockCache?: BlockRunCache | null;
      cacheKey?: string;
      /**
       * Checks each block's checksum when the block is first read instead of all at once: a
       * query reading a few blocks of a chunk (a log query's newest entries, a short range)
       * does not checksum the others. Corrupt bytes still never reach a reader.
       */
      checkBlocksOnRead?: boolean;
    } = {},
  ): MemChunk {
    const columnar = isColumnarChunk(buf);
    const checks = { blockChecksums: options.checkBlocksOnRead !== true };
    const { encoding, blocks, symbols } = columnar
      ? decodeColumnarChunk(buf, checks)
      : decodeChunk(buf, checks);
    const chunk = new MemChunk({ encoding }, symbols);
    const crcPending = !checks.blockChecksums;
    for (const b of blocks) chunk.addBlock(storedBlock(b, crcPending));
    chunk.readOnly = true;
    chunk.columnar = columnar;
    const { blockCache, cacheKey } = options;
    chunk.blockCache =
      blockCache && cacheKey !== undefined ? { cache: blockCache, key: cacheKey } : null;
    return chunk;
  }

  /**
   * A chunk that takes appends again, from the bytes of one that did (a WAL checkpoint's head
   * chunk): its blocks are kept as they are, compressed, and new entries go to an empty head.
   * `opts` are the writer's options but for the encoding, which stays the bytes' own. The last
   * block counts as the one just cut, so appends still reject copies of its entries.
   * `buf` must not change afterwards (blocks are views into it). Throws ChunkFormatError.
   */
  static restore(buf: Buffer, opts?: Partial<ChunkOptions>): MemChunk {
    const { encoding, blocks, symbols } = decodeChunk(buf);
    const chunk = new MemChunk({ ...opts, encoding }, symbols);
    for (const b of blocks) chunk.addBlock(storedBlock(b));
    const last = chunk.blocks.at(-1);
    if (last !== undefined) chunk.previous = { block: last, sortedTs: null, run: null };
    return chunk;
  }

  /**
   * A chunk that takes appends again, from `checkpointParts`: its cut blocks as they are,
   * compressed, and its head block's entries back in a head block that takes appends (the
   * last block counts as the one just cut, as in `restore`). `opts` are the writer's options;
   * the encoding is the blocks' own when there are any. Both buffers must not change afterwards
   * (the chunk holds views into them). Their checksums are not checked: the WAL frame that
   * carries them has one. Throws ChunkFormatError.
   */
  static restoreParts(parts: ChunkCheckpointParts, opts?: Partial<ChunkOptions>): MemChunk {
    const { run, rawBytes, symbols } = decodeHeadRun(parts.head);
    const stored = parts.blocks === null ? null : decodeChunk(parts.blocks, { checksums: false });
    // Both parts were encoded from the chunk's one symbol table at the same moment.
    const encoding = stored ? { encoding: stored.encoding } : {};
    const head = HeadBlock.fromRun(symbols, run, rawBytes);
    const chunk = new MemChunk({ ...opts, ...encoding }, symbols, head);
    for (const b of stored?.blocks ?? []) chunk.addBlock(storedBlock(b));
    const last = chunk.blocks.at(-1);
    if (last !== undefined) chunk.previous = { block: last, sortedTs: null, run: null };
    return chunk;
  }

  /**
   * A read-only chunk with the blocks and head block of a snapshot: the same entries in the
   * same order, entry count and byte counts as the chunk had. Blocks are views into the bytes.
   */
  static fromSnapshot(snapshot: ChunkSnapshot): MemChunk {
    // Made by `snapshot` in this process a moment ago: its layout is checked, not its checksums.
    const unchecked = { checksums: false };
    const given = snapshot.blocks;
    const headBytes = snapshot.head;
    const headRun = headBytes !== null && isHeadRun(headBytes) ? decodeHeadRun(headBytes) : null;
    const head = headBytes === null || headRun !== null ? null : decodeChunk(headBytes, unchecked);
    // Both parts were encoded with the chunk's one symbol table at the same moment: the head's
    // copy serves the blocks too.
    const headSymbols = headRun?.symbols ?? head?.symbols;
    let chunk: MemChunk;
    if (given === null || given instanceof Uint8Array) {
      const blocks =
        given === null
          ? null
          : decodeChunk(Buffer.from(given.buffer, given.byteOffset, given.byteLength), unchecked);
      chunk = new MemChunk(
        { encoding: blocks?.encoding ?? 'none' },
        headSymbols ?? blocks?.symbols,
      );
      for (const b of blocks?.blocks ?? []) chunk.addBlock(storedBlock(b));
    } else {
      chunk = new MemChunk({ encoding: given.encoding }, headSymbols ?? sharedSymbols(given));
      for (let i = 0; i < given.metas.length; i++) chunk.addBlock(sharedBlock(given, i));
    }
    if (headRun !== null) {
      chunk.head = HeadBlock.fromRun(chunk.symbols, headRun.run, headRun.rawBytes);
    }
    const entries = head?.blocks[0];
    if (entries !== undefined) {
      // An uncompressed block: its data is the payload. Sorted by time, then arrival, which
      // is the order the head block reads in.
      const run = decodeBlockPayload(
        entries.data,
        entries,
        chunk.symbols.strings,
        chunk.symbols.byteLengths,
      );
      chunk.head = HeadBlock.fromRun(chunk.symbols, run, entries.rawBytes);
    }
    chunk.readOnly = true;
    return chunk;
  }

  get entryCount(): number {
    return this.blockEntries + this.head.entryCount;
  }

  /** Line bytes plus structured metadata bytes of all entries. */
  get uncompressedBytes(): number {
    return this.blockRawBytes + this.head.uncompressedBytes;
  }

  /** Compressed bytes of the cut blocks (the head is not compressed yet). */
  get compressedBytes(): number {
    this.finishCompression();
    return this.blockCompressedBytes;
  }

  /** Line plus structured metadata bytes of the head block: what is not compressed yet. */
  get headBytes(): number {
    return this.head.uncompressedBytes;
  }

  /** Some cut block is still being compressed in the background. */
  get compressing(): boolean {
    return this.pendingBlocks > 0;
  }

  get blockCount(): number {
    return this.blocks.length;
  }

  /** Entries of the cut blocks (the rest are in the head block). */
  get blockEntryCount(): number {
    return this.blockEntries;
  }

  /** Bytes of the cut blocks' side copies of their timestamps and line lengths (`BlockTimes`). */
  get blockTimesBytes(): number {
    let bytes = 0;
    for (const b of this.blocks) if (b.times !== undefined) bytes += b.times.end - b.times.start;
    return bytes;
  }

  /** Bytes the chunk holds for those side copies, with the room for the next blocks' ones. */
  get blockTimesHeld(): number {
    return this.times.byteLength;
  }

  /** Earliest timestamp in the chunk; 0n when empty. */
  get minTimeNs(): bigint {
    let min = this.head.entryCount > 0 ? this.head.minTimeNs : null;
    for (const b of this.blocks) if (min === null || b.minTs < min) min = b.minTs;
    return min ?? 0n;
  }

  /** Latest timestamp in the chunk; 0n when empty. */
  get maxTimeNs(): bigint {
    let max = this.head.entryCount > 0 ? this.head.maxTimeNs : null;
    for (const b of this.blocks) if (max === null || b.maxTs > max) max = b.maxTs;
    return max ?? 0n;
  }

  /** The head block the next append goes to (see `Instance.warmStreams`). */
  get nextHead(): HeadBlock {
    return this.cutHead ?? this.head;
  }

  /**
   * Appends in any time order. Returns false when the same (timestamp, line) is already in
   * the head block or the previous block. Cuts a block once the head reaches blockSize.
   * `aboveAll` promises that the timestamp is above every one the chunk holds (the caller
   * tracks its newest): no copy can be present, and the checks that would read the blocks'
   * bounds are skipped.
   */
  append(timestampNs: bigint, line: Buffer, structuredMetadata: Labels, aboveAll = false): boolean {
    if (this.readOnly) throw new ReadOnlyChunkError();
    if (!aboveAll && this.inPreviousBlock(timestampNs, line)) return false;
    if (this.cutHead !== null) {
      this.head = this.cutHead.recycle();
      this.cutHead = null;
    }
    const head = this.head;
    if (!head.append(timestampNs, line, structuredMetadata, aboveAll)) return false;
    this.lastBuffer = head.lastLineBuffer;
    this.lastStart = head.lastLineStart;
    if (head.uncompressedBytes >= this.options.blockSize) this.cutBlock();
    return true;
  }

  /**
   * The buffer holding the line of the last successful append: the head block's (or the block
   * cut right after it), whose bytes stay until the next append recycles it.
   */
  get lastLineBuffer(): Buffer {
    return this.lastBuffer;
  }

  /** Where that line starts in `lastLineBuffer`. */
  get lastLineStart(): number {
    return this.lastStart;
  }

  /**
   * Full when compressed blocks plus the uncompressed head reach targetSize (an upper bound
   * on the final size, as Loki estimates it); with targetSize 0, at 10 blocks like Loki.
   */
  isFull(): boolean {
    const { targetSize } = this.options;
    if (targetSize === 0) return this.blocks.length >= BLOCKS_PER_CHUNK_WITHOUT_TARGET;
    const known = this.blockCompressedBytes + this.head.uncompressedBytes;
    // Blocks still compressing can only add; when even their largest possible size cannot
    // reach the target, the answer does not depend on them.
    if (known >= targetSize) return true;
    if (this.pendingBlocks === 0) return false;
    if (known + maxCompressedLength(this.pendingBytes) < targetSize) return false;
    this.finishCompression();
    return this.blockCompressedBytes + this.head.uncompressedBytes >= targetSize;
  }

  /**
   * Sorts the head block by timestamp (stable: equal timestamps keep insertion order) into a
   * new block, compressed off the event loop when the codec can
   * (readers decode the uncompressed bytes meanwhile); a no-op when the head is empty.
   */
  cutBlock(): void {
    if (this.head.entryCount === 0) return;
    const encoded = this.head.encodePayload(this.symbols.byteLengths, PAYLOAD_POOL);
    const block: CutBlock = {
      minTs: encoded.minTs,
      maxTs: encoded.maxTs,
      entries: encoded.entries,
      rawBytes: encoded.rawBytes,
      uncompressedLength: encoded.uncompressedLength,
      data: NO_DATA,
      crc: 0,
      payload: encoded.payload,
      times: this.times.add(encoded),
    };
    this.addBlock(block);
    const pending = compressAsync(this.options.encoding, encoded.payload);
    if (pending === null) {
      this.completeBlock(block, compressCutBlock(this.options.encoding, encoded.payload));
    } else {
      // A failed background compression leaves the block pending: finishCompression redoes
      // it synchronously, which reports the error where the bytes are needed.
      pending.then(
        (data) => this.completeBlock(block, data),
        () => {},
      );
    }
    this.previous = { block, sortedTs: encoded.sortedTs, run: null };
    this.cutHead = this.head;
    this.head = new HeadBlock(this.symbols);
  }

  /** Cuts the head and takes no more appends' worth of buffers: the chunk is closed. */
  close(): void {
    this.cutBlock();
    this.cutHead = null;
    this.times.trim();
  }

  /**
   * Entries with fromNs <= ts < throughNs by timestamp, equal timestamps in insertion order
   * (exactly reversed for 'backward'), later copies of an identical (timestamp, line)
   * dropped; with `options.lineContains`, only those whose line contains it.
   */
  iterator(
    fromNs: bigint,
    throughNs: bigint,
    direction: Direction,
    options?: CursorOptions,
  ): ChunkCursor {
    // Oldest first: blocks in cut order, then the head, which is what orders equal timestamps.
    const sources: RunSource[] = this.blockSources(fromNs, throughNs, options);
    if (this.head.entryCount > 0) {
      const run = this.head.snapshot();
      sources.push({
        minTs: this.head.minTimeNs,
        maxTs: this.head.maxTimeNs,
        load: () => run,
        meta: loadedRunMeta(run),
      });
    }
    return new MergeCursor(sources, fromNs, throughNs, direction, options);
  }

  /**
   * The chunk's entries as two reads captured now, which together give what `iterator` gives
   * (merged oldest first, the blocks before the head): its cut blocks, and its head block. Lets
   * a reader search the compressed blocks elsewhere (`encodeBlocks`) and the head here. Either
   * part is null when it holds no entry.
   */
  split(
    fromNs: bigint,
    throughNs: bigint,
    direction: Direction,
    options?: CursorOptions,
  ): ChunkSplit {
    const blocks: RunSource[] = this.blockSources(fromNs, throughNs, options);
    let head: ChunkCursor | null = null;
    if (this.head.entryCount > 0) {
      const run = this.head.snapshot();
      const source = { minTs: this.head.minTimeNs, maxTs: this.head.maxTimeNs, load: () => run };
      head = new MergeCursor([source], fromNs, throughNs, direction, options);
    }
    if (blocks.length === 0) {
      return {
        blocks: null,
        blocksMinTs: 0n,
        blocksMaxTs: 0n,
        blocksBytes: 0,
        encodeBlocks: null,
        head,
      };
    }
    let minTs = blocks[0].minTs;
    let maxTs = blocks[0].maxTs;
    for (const b of blocks) {
      if (b.minTs < minTs) minTs = b.minTs;
      if (b.maxTs > maxTs) maxTs = b.maxTs;
    }
    const cut = this.blocks.slice();
    let bytes = 0;
    for (const b of cut) {
      bytes += b.payload !== null ? b.uncompressedLength : (b.spill?.length ?? b.data.length);
    }
    const encodeBlocks = (): Buffer => {
      // Blocks never change once cut (but for their compression finishing); the symbol table
      // only grows.
      this.finishCompression();
      return this.encodeBlocks(cut);
    };
    const cursor = new MergeCursor(blocks, fromNs, throughNs, direction, options);
    return {
      blocks: cursor,
      blocksMinTs: minTs,
      blocksMaxTs: maxTs,
      blocksBytes: bytes,
      encodeBlocks,
      head,
    };
  }

  /**
   * The chunk as it is now (see `ChunkSnapshot`): the cut blocks as views of shared memory
   * (only a block whose background compression is not done yet gets compressed here) and the
   * head's entries as a head run (with their time order when they arrived out of it: no block
   * is encoded per query). The chunk keeps taking appends.
   */
  snapshot(): ChunkSnapshot {
    // Encoded once for both parts (`fromSnapshot` decodes it once too).
    let symbolBytes: Buffer | null = null;
    let blocks: SharedBlocks | null = null;
    const retain: CutBlock[] = [];
    if (this.blocks.length > 0) {
      this.finishCompression();
      // A block's bytes move to shared memory on its first snapshot; later ones only refer to them.
      // A spilled block goes as where its bytes are: the reader reads those it needs, off this
      // thread, while `retain` holds the block (and so its spill file).
      for (const block of this.blocks) {
        if (block.spill === undefined) block.data = inSharedMemory(block.data);
        else retain.push(block);
      }
      symbolBytes = this.symbols.encode();
      blocks = shareBlocks(this.options.encoding, this.blocks, symbolBytes, this.times);
    }
    if (this.head.entryCount === 0) return { blocks, head: null, retain };
    // The head goes column by column, with its rows' time order when they came out of order.
    const view = this.head.transientView();
    symbolBytes ??= this.symbols.encode();
    const run = encodeHeadRun(view, this.head.uncompressedBytes, symbolBytes, true);
    if (run !== null) return { blocks, head: run, retain };
    // Only on a big-endian machine: the head sorted into one uncompressed block.
    const encoded = encodeBlockPayload(view, this.symbols.byteLengths);
    const block: StoredBlock = {
      minTs: encoded.minTs,
      maxTs: encoded.maxTs,
      entries: encoded.entries,
      rawBytes: encoded.rawBytes,
      uncompressedLength: encoded.uncompressedLength,
      data: encoded.payload,
      // Never checked: `fromSnapshot` reads these bytes without their checksums.
      crc: 0,
    };
    const head = encodeChunk({ encoding: 'none', blocks: [block], symbols: this.symbols });
    return { blocks, head, retain };
  }

  /** Serializes the chunk (cutting the head first). Equal contents give equal bytes. */
  encode(): Buffer {
    if (!this.readOnly) this.cutBlock();
    this.finishCompression();
    return this.encodeBlocks(this.blocks);
  }

  /** Chunk bytes of `blocks`, in the format they came in. */
  private encodeBlocks(blocks: readonly CutBlock[]): Buffer {
    for (const b of blocks) if (b.crcPending === true) checkBlock(b);
    const { encoding } = this.options;
    if (this.columnar) {
      const columnar = blocks as readonly ColumnarStoredBlock[];
      return encodeColumnarChunk({ encoding, blocks: columnar, symbols: this.symbols });
    }
    return encodeChunk({ encoding, blocks: withData(blocks), symbols: this.symbols });
  }

  /**
   * The cut blocks as run sources, but for those whose token filter rules out the cursor's
   * line prefilter (`blockMayMatch`): such a block is never decompressed.
   */
  private blockSources(fromNs: bigint, throughNs: bigint, options?: CursorOptions): RunSource[] {
    const out: RunSource[] = [];
    this.blocks.forEach((block, i) => {
      if (!blockMayMatch(block.layout, options, this.symbols)) return;
      const load = (): EntryRun => this.loadBlock(block, i, sidesOutside(block, fromNs, throughNs));
      const meta = this.blockMeta(block, load);
      // Row blocks in a codec that writes in place: a transient read needs no fresh buffer
      // (and never goes through the block cache, whose runs outlive their readers).
      const loadTransient =
        block.layout === undefined && decompressesInPlace(this.options.encoding)
          ? (): EntryRun => this.decodeBlockInScratch(block)
          : undefined;
      out.push({ minTs: block.minTs, maxTs: block.maxTs, load, loadTransient, meta });
    });
    return out;
  }

  /**
   * A block's meta for counting: a columnar block's from its layout, a block cut here from its
   * side copy, else (restored or decoded row blocks) from the start of its payload.
   */
  private blockMeta(block: CutBlock, load: () => EntryRun): RunMeta {
    if (block.layout !== undefined) {
      return columnarRunMeta(() => blockData(block), block.layout, block, this.symbols.strings);
    }
    if (block.times !== undefined) return blockTimesMeta(block.times, block, this.symbols.strings);
    return {
      entries: block.entries,
      lineBytes: undefined,
      metadataNames: undefined,
      times: () => {
        const prefix = payloadPrefix(this.options.encoding, blockData(block), block.payload);
        if (prefix === null) return runTimesOf(load());
        const { strings, byteLengths } = this.symbols;
        return rowBlockTimes(prefix, block, strings, byteLengths);
      },
    };
  }

  /**
   * The bytes `encode()` would give now (the head as one more block), without cutting the
   * head: the chunk keeps taking appends into the same head block. For the WAL checkpoint,
   * which encodes every head chunk at once: cutting each would start a background compression
   * per stream and a new head block, several times the work of compressing the head here.
   */
  encodeSnapshot(): Buffer {
    this.finishCompression();
    if (this.head.entryCount === 0) {
      return this.encodeBlocks(this.blocks);
    }
    const encoded = this.head.encodePayload(this.symbols.byteLengths);
    const data = compressCutBlock(this.options.encoding, encoded.payload);
    const head: StoredBlock = {
      minTs: encoded.minTs,
      maxTs: encoded.maxTs,
      entries: encoded.entries,
      rawBytes: encoded.rawBytes,
      uncompressedLength: encoded.uncompressedLength,
      data,
      crc: crc32(data),
    };
    return encodeChunk({
      encoding: this.options.encoding,
      blocks: [...withData(this.blocks), head],
      symbols: this.symbols,
    });
  }

  /**
   * The chunk for a WAL checkpoint, with nothing compressed: its cut blocks as chunk bytes (null
   * when none is cut) and its head block's entries as a head run (`encodeHeadRun`), which
   * `restoreParts` turns back into a head block. A few copies per chunk, where
   * `encodeSnapshot` encodes and compresses the head as one more block. Null when the head
   * block is empty or its entries arrived out of time order: use `encodeSnapshot` then.
   */
  checkpointParts(): ChunkCheckpointParts | null {
    if (this.head.entryCount === 0) return null;
    const view = this.head.transientView();
    if (view.order !== null) return null;
    const symbolBytes = this.symbols.encode();
    const head = encodeHeadRun(view, this.head.uncompressedBytes, symbolBytes);
    if (head === null) return null;
    if (this.blocks.length === 0) return { blocks: null, head };
    this.finishCompression();
    return { blocks: this.encodeBlocks(this.blocks), head };
  }

  private addBlock(block: CutBlock): void {
    this.blocks.push(block);
    this.blockEntries += block.entries;
    this.blockRawBytes += block.rawBytes;
    this.blockCompressedBytes += block.spill?.length ?? block.data.length;
    if (block.payload !== null) {
      this.pendingBlocks++;
      this.pendingBytes += block.uncompressedLength;
    }
  }

  /** Stores a block's compressed bytes, unless it already got them (a forced finish). */
  private completeBlock(block: CutBlock, data: Buffer): void {
    const payload = block.payload;
    if (payload === null) return;
    // Keep only the block's bytes: the codec may return a view of a bigger buffer, and
    // 'none' returns the payload itself, which goes back to the pool.
    block.data = ownsWholeBuffer(data) && data !== payload ? data : Buffer.from(data);
    PAYLOAD_POOL.release(payload);
    block.crc = crc32(block.data);
    block.payload = null;
    this.blockCompressedBytes += block.data.length;
    this.pendingBlocks--;
    this.pendingBytes -= block.uncompressedLength;
    const ref = this.options.spill?.write(block.data, block) ?? null;
    if (ref !== null) {
      block.spill = ref;
      block.data = NO_DATA;
    }
  }

  /** Compresses, on the event loop, every block whose background compression is not done. */
  private finishCompression(): void {
    if (this.pendingBlocks === 0) return;
    for (const block of this.blocks) {
      if (block.payload !== null) {
        this.completeBlock(block, compressCutBlock(this.options.encoding, block.payload));
      }
    }
  }

  /**
   * A block's entries, through the block cache of a read-only chunk when it has one (`sides`:
   * see `BlockRunCache.load`).
   */
  private loadBlock(block: CutBlock, index = -1, sides: 0 | 1 | 2 = 0): EntryRun {
    const shared = this.blockCache;
    if (shared === null || index < 0) return this.decodeBlock(block);
    return shared.cache.load(`${shared.key}#${index}`, () => this.decodeBlock(block), sides);
  }

  private decodeBlock(block: CutBlock): EntryRun {
    if (block.layout !== undefined) {
      const { strings, byteLengths } = this.symbols;
      return decodeColumnarBlock(blockData(block), block.layout, block, strings, byteLengths);
    }
    // A payload still compressing goes back to the pool when done: readers get a copy.
    const payload =
      block.payload !== null
        ? Buffer.from(block.payload)
        : decompress(
            this.options.encoding,
            dataToDecompress(block, this.options.encoding),
            block.uncompressedLength,
          );
    return decodeBlockPayload(payload, block, this.symbols.strings, this.symbols.byteLengths);
  }

  /**
   * A row block's entries decoded from a payload decompressed into a scratch buffer, which the
   * reader gives back (`ScratchPayloadRun.release`); as `decodeBlock` when the codec cannot
   * write in place or the block's compression is still running.
   */
  private decodeBlockInScratch(block: CutBlock): EntryRun {
    const encoding = this.options.encoding;
    if (block.payload !== null) return this.decodeBlock(block);
    const scratch = takeScratch(block.uncompressedLength);
    const payload = scratch.subarray(0, block.uncompressedLength);
    const { strings, byteLengths } = this.symbols;
    try {
      if (decompressInto(encoding, dataToDecompress(block, encoding), payload)) {
        return new ScratchPayloadRun(
          decodeBlockPayload(payload, block, strings, byteLengths),
          scratch,
        );
      }
    } catch (err) {
      giveScratch(scratch);
      throw err;
    }
    giveScratch(scratch);
    return this.decodeBlock(block);
  }

  /** Whether the last cut block holds this (timestamp, line), anywhere among that timestamp's rows. */
  private inPreviousBlock(timestampNs: bigint, line: Buffer): boolean {
    const prev = this.previous;
    if (prev === null || timestampNs < prev.block.minTs || timestampNs > prev.block.maxTs) {
      return false;
    }
    if (prev.sortedTs === null) {
      prev.run = this.loadBlock(prev.block);
      prev.sortedTs = prev.run.ts;
    }
    const ts = prev.sortedTs;
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ts[mid] < timestampNs) lo = mid + 1;
      else hi = mid;
    }
    if (lo === ts.length || ts[lo] !== timestampNs) return false;
    prev.run ??= this.loadBlock(prev.block);
    const run = prev.run;
    for (let row = lo; row < run.count && run.ts[row] === timestampNs; row++) {
      const start = run.lineOffsets[row];
      const end = run.lineOffsets[row + 1];
      if (
        end - start === line.length &&
        run.lines.compare(line, 0, line.length, start, end) === 0
      ) {
        return true;
      }
    }
    return false;
  }
}

function ownsWholeBuffer(b: Buffer): boolean {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
}
