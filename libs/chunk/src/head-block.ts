import { endianness } from 'node:os';
import type { Labels } from '@logsvc/api';
import { type Direction, type EntryCursor, MergeCursor } from './cursor';
import { type EncodedPayload, encodeBlockPayload } from './block';
import type { EntryRun } from './entry-run';
import type { SlabPool } from './slab-pool';
import { SymbolTable } from './symbols';

// Small: a new stream often holds a few entries, and many streams are new at once.
const INITIAL_ENTRIES = 8;
const INITIAL_LINE_BYTES = 512;
/**
 * A block that outgrows its start is a busy stream's: its rows jump straight to this, so
 * growing to a full block takes a few copies, not one per doubling from 8.
 */
const SECOND_ENTRIES = 64;
/**
 * Line pages after the first: each twice the one before, from the second's size up to the
 * largest (a line longer than that gets a page of its own length). Pages are never copied
 * into bigger ones, so a block allocates its line bytes about once, not about three times.
 */
const SECOND_PAGE_BYTES = 4096;
const MAX_PAGE_BYTES = 16 * 1024;
/** Longest run of equal timestamps scanned linearly before switching to the hash index. */
const MAX_LINEAR_TIE_SCAN = 16;
/** Bits of the timestamp filter per row the arrays hold (two set per row: ~2 % false hits). */
const FILTER_BITS_PER_ROW = 16;
/**
 * The filter's hits (each a scan of the rows) allowed per 8 lookups, over a first 16, before
 * the block builds the hash index instead: far above the false hits' ~2 %, reached when
 * entries really are copies (a client resending a batch it already sent).
 */
const FILTER_HITS_PER_8_LOOKUPS = 1;
const FILTER_FIRST_HITS = 16;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Room for entries, line bytes and metadata symbol ids a head block starts with. */
export interface HeadBlockCapacity {
  readonly entries: number;
  readonly lineBytes: number;
  readonly metadataIds: number;
}

/**
 * The unordered, uncompressed tail of a chunk: entries in arrival order, held in pages of line
 * bytes plus typed arrays, never an object per entry. A line lies whole in one page; a row's
 * line offset counts the bytes of the pages before it, as if they were one buffer (which
 * readers get: `view` joins the pages). Rejects an entry whose
 * (timestamp, line) is already present, wherever it sits among the entries of that timestamp.
 * Read in order of timestamp, entries with equal timestamps in arrival order. Buffers are never
 * reused after a snapshot was handed out, so line views and snapshots stay valid while more
 * entries are appended; `recycle` reuses them only for a block no reader has seen.
 */
export class HeadBlock {
  /**
   * One row of 16 bytes per entry, two views of the same memory: the timestamp (`rowTs[2r]`),
   * then where its line and its metadata ids start (`rowU32[4r + 2]`, `rowU32[4r + 3]`). An
   * append writes one row in one place, not three arrays in three; readers get the columns
   * `EntryRun` describes, copied out (`view`).
   */
  private rowTs!: BigInt64Array;
  private rowU32!: Uint32Array;
  /** Rows the arrays hold. */
  private rowCapacity = 0;
  /** Where the lines (counted over all pages) and the metadata ids of the rows so far end. */
  private lineEnd = 0;
  private smEnd = 0;
  /**
   * The page lines are appended to, and the line offset its first byte has. Views of any
   * buffer: a block rebuilt from a snapshot (`fromRun`) holds a decoded run's.
   */
  private lines: Buffer<ArrayBufferLike> = NO_LINES;
  private pageBase = 0;
  /** Filled pages before `lines`, with the line offset of each one's first byte; null: none. */
  private pages: Buffer[] | null = null;
  private pageStarts: number[] | null = null;
  /** Pages of the block's earlier rows (see `recycle`), taken in order before new ones. */
  private sparePages: Buffer[] | null = null;
  private smIds: Uint32Array<ArrayBufferLike> = NO_IDS;
  /** `view()` of the current rows, until the next append or recycle. */
  private viewCache: EntryRun | null = null;
  private n = 0;
  private bytes = 0;
  private minTs = 0n;
  private maxTs = 0n;
  /** True while rows arrived with non-decreasing timestamps. */
  private inOrder = true;
  /**
   * Duplicate detection once appends are out of order: a hash of the timestamp's two 32-bit
   * words picks a bucket holding its newest row (-1: none), `chain[row]` the next older row of
   * the same bucket. Typed arrays only: no Map entry or boxed number per row.
   */
  private index: Int32Array | null = null;
  private chain: Int32Array | null = null;
  /**
   * Before the index: a Bloom filter over the rows' timestamps (two bits each), so the usual
   * out-of-order entry, whose timestamp no row has, is told apart in a few KB that stay in
   * cache instead of a bucket, a row and a chain link each a cache miss away. A hit scans the
   * rows; when hits are many (FILTER_HITS_PER_8_LOOKUPS), the index takes over.
   */
  private tsFilter: Int32Array | null = null;
  private filterLookups = 0;
  private filterHits = 0;
  private sortedCache: Uint32Array | null | undefined = undefined;
  /** The last frozen metadata array appended, its symbol ids and byte size (entries share it). */
  private lastMetadata: Labels | null = null;
  private lastIds: number[] = [];
  /**
   * The first two of `lastIds` and their count, on the block itself: most entries carry one
   * pair (`detected_level`), and these save reading the array's own memory per append.
   */
  private lastIdCount = 0;
  private lastId0 = 0;
  private lastId1 = 0;
  private lastMetadataBytes = 0;
  /** A snapshot escaped to a reader: the buffers must not be written again. */
  private shared = false;

  /**
   * `capacity` presizes the buffers (a block replacing one a reader saw passes that one's
   * size, so a head that fills up like the last one never grows).
   */
  constructor(
    readonly symbols: SymbolTable = new SymbolTable(),
    capacity?: HeadBlockCapacity,
  ) {
    this.setRowCapacity(Math.max(INITIAL_ENTRIES, capacity?.entries ?? 0));
    // A block made by `fromRun` takes the run's buffers: no others are made for it.
    if (adoptingRun) return;
    this.smIds = new Uint32Array(Math.max(INITIAL_ENTRIES * 2, capacity?.metadataIds ?? 0));
    this.lines = Buffer.allocUnsafe(Math.max(INITIAL_LINE_BYTES, capacity?.lineBytes ?? 0));
  }

  /**
   * A block holding a decoded run in timestamp order (`rawBytes`: its line and metadata bytes),
   * as the head block it was taken from (`MemChunk.fromSnapshot`, a read-only chunk, and
   * `MemChunk.restoreParts`, one that takes appends): its timestamps and offsets are copied
   * into rows, its line and metadata buffers used as they are and never written (the block
   * counts as shared; appends go to new pages and a grown metadata array).
   */
  static fromRun(symbols: SymbolTable, run: EntryRun, rawBytes: number): HeadBlock {
    const n = run.count;
    adoptingRun = true;
    let block: HeadBlock;
    try {
      block = new HeadBlock(symbols, { entries: n, lineBytes: 0, metadataIds: 0 });
    } finally {
      adoptingRun = false;
    }
    for (let r = 0; r < n; r++) {
      block.rowTs[2 * r] = run.ts[r];
      block.rowU32[4 * r + 2] = run.lineOffsets[r];
      block.rowU32[4 * r + 3] = run.smOffsets[r];
    }
    block.lineEnd = run.lineOffsets[n];
    block.smEnd = run.smOffsets[n];
    block.lines = run.lines;
    block.smIds = run.smIds;
    block.n = n;
    block.bytes = rawBytes;
    if (run.count > 0) {
      block.minTs = run.ts[0];
      block.maxTs = run.ts[run.count - 1];
    }
    if (run.order !== null && n > 0) {
      // Rows out of time order, with their order already found: kept, not sorted again.
      block.inOrder = false;
      block.sortedCache = run.order;
      block.minTs = run.ts[run.order[0]];
      block.maxTs = run.ts[run.order[n - 1]];
    }
    block.shared = true;
    return block;
  }

  /** What this block holds, as a capacity for the next one. */
  get capacity(): HeadBlockCapacity {
    return {
      entries: this.n,
      lineBytes: this.lineEnd,
      metadataIds: this.smEnd,
    };
  }

  get entryCount(): number {
    return this.n;
  }

  /** Line bytes plus structured metadata name and value bytes. */
  get uncompressedBytes(): number {
    return this.bytes;
  }

  get minTimeNs(): bigint {
    return this.minTs;
  }

  get maxTimeNs(): bigint {
    return this.maxTs;
  }

  /**
   * The buffer holding the line of the row appended last, and where it starts: its bytes stay
   * as they are until `recycle` hands the buffer to new rows.
   */
  get lastLineBuffer(): Buffer {
    return this.lines;
  }

  get lastLineStart(): number {
    // Lines are appended to the last page, so the last one is there.
    return this.rowU32[4 * (this.n - 1) + 2] - this.pageBase;
  }

  /**
   * Reads this block and its arrays' headers; `warmData` then reads where the next append
   * writes. Each returns something of what it read. They bring the block into cache ahead of
   * an append (see `Instance.warmStreams` in the ingester).
   */
  warmArrays(): number {
    return this.rowU32.length + this.lines.length + this.smIds.length;
  }

  warmData(): number {
    // The last row and line written: the next append's neighbours, in the same cache lines.
    const row = this.n > 0 ? this.n - 1 : 0;
    const at = this.lineEnd - this.pageBase - 1;
    const ids = this.smEnd > 0 ? this.smEnd - 1 : 0;
    return (
      (4 * row < this.rowU32.length ? this.rowU32[4 * row] : 0) +
      (at >= 0 && at < this.lines.length ? this.lines[at] : 0) +
      (ids < this.smIds.length ? this.smIds[ids] : 0)
    );
  }

  /**
   * Appends an entry; false (and nothing stored) if the same (timestamp, line) is present.
   * `aboveAll` promises a timestamp above every one in the block (see `MemChunk.append`): the
   * duplicate check and the bounds' comparisons, each a read of a stored bigint, are skipped.
   */
  append(timestampNs: bigint, line: Buffer, structuredMetadata: Labels, aboveAll = false): boolean {
    if (timestampNs < INT64_MIN || timestampNs > INT64_MAX) {
      throw new RangeError(`timestamp ${timestampNs} ns is outside the signed 64-bit range`);
    }
    if (!aboveAll && this.contains(timestampNs, line)) return false;
    const row = this.n;
    this.ensureCapacity(row + 1, structuredMetadata.length * 2);
    this.rowTs[2 * row] = timestampNs;
    const lineStart = this.lineEnd;
    this.rowU32[4 * row + 2] = lineStart;
    let at = lineStart - this.pageBase;
    if (at + line.length > this.lines.length) at = this.nextPage(line.length);
    this.lines.set(line, at);
    this.lineEnd = lineStart + line.length;
    let sm = this.smEnd;
    this.rowU32[4 * row + 3] = sm;
    if (structuredMetadata !== this.lastMetadata) this.internMetadata(structuredMetadata);
    const count = this.lastIdCount;
    if (count === 2) {
      this.smIds[sm++] = this.lastId0;
      this.smIds[sm++] = this.lastId1;
    } else if (count > 0) {
      const ids = this.lastIds;
      for (let i = 0; i < count; i++) this.smIds[sm++] = ids[i];
    }
    this.smEnd = sm;
    const size = line.length + this.lastMetadataBytes;
    if (row === 0) {
      this.minTs = timestampNs;
      this.maxTs = timestampNs;
    } else if (aboveAll) {
      this.maxTs = timestampNs;
    } else {
      if (timestampNs < this.maxTs) this.inOrder = false;
      else this.maxTs = timestampNs;
      if (timestampNs < this.minTs) this.minTs = timestampNs;
    }
    if (this.index !== null) this.indexRow(row);
    else if (this.tsFilter !== null) this.filterRow(this.tsFilter, row);
    this.n = row + 1;
    this.bytes += size;
    this.sortedCache = undefined;
    this.viewCache = null;
    return true;
  }

  /** Sets `lastIds` and `lastMetadataBytes` for this metadata; remembers frozen arrays. */
  private internMetadata(structuredMetadata: Labels): void {
    const ids: number[] = [];
    let bytes = 0;
    for (const { name, value } of structuredMetadata) {
      const nameId = this.symbols.intern(name);
      const valueId = this.symbols.intern(value);
      ids.push(nameId, valueId);
      bytes += this.symbols.byteLengths[nameId] + this.symbols.byteLengths[valueId];
    }
    this.lastIds = ids;
    this.lastIdCount = ids.length;
    this.lastId0 = ids.length > 0 ? ids[0] : 0;
    this.lastId1 = ids.length > 1 ? ids[1] : 0;
    this.lastMetadataBytes = bytes;
    // Only a frozen array is sure to hold the same pairs when it comes again.
    this.lastMetadata = Object.isFrozen(structuredMetadata) ? structuredMetadata : null;
  }

  /** Whether an entry with this exact timestamp and line bytes is in the block. */
  contains(timestampNs: bigint, line: Buffer): boolean {
    if (this.n === 0) return false;
    // Outside the block's time range: no row can match (the index keeps up in `append`).
    if (timestampNs > this.maxTs || timestampNs < this.minTs) return false;
    if (this.index === null) {
      if (this.inOrder && timestampNs === this.maxTs) {
        // Rows are sorted by time, so equal timestamps sit at the end.
        for (
          let row = this.n - 1, seen = 0;
          row >= 0 && this.rowTs[2 * row] === timestampNs;
          row--
        ) {
          if (++seen > MAX_LINEAR_TIE_SCAN)
            return this.buildIndex().indexedContains(timestampNs, line);
          if (this.lineEquals(row, line)) return true;
        }
        return false;
      }
      const hitBudget =
        FILTER_FIRST_HITS + ((FILTER_HITS_PER_8_LOOKUPS * this.filterLookups) >>> 3);
      if (this.filterHits > hitBudget) this.buildIndex();
      else return this.filteredContains(timestampNs, line);
    }
    return this.indexedContains(timestampNs, line);
  }

  /** `contains` through the timestamp filter (built on first use), scanning the rows on a hit. */
  private filteredContains(timestampNs: bigint, line: Buffer): boolean {
    const filter = (this.tsFilter ??= this.buildFilter());
    TS_SCRATCH[0] = timestampNs;
    const lo = TS_WORDS[0];
    const hi = TS_WORDS[1];
    const h = timestampHash(lo, hi);
    const bits = filterBits(h);
    this.filterLookups++;
    if ((filter[h & (filter.length - 1)] & bits) !== bits) return false;
    const rows = this.rowU32;
    this.filterHits++;
    for (let row = 0; row < this.n; row++) {
      if (rows[4 * row] === lo && rows[4 * row + 1] === hi && this.lineEquals(row, line)) {
        return true;
      }
    }
    return false;
  }

  private buildFilter(): Int32Array {
    let words = 32;
    while (words < (FILTER_BITS_PER_ROW * this.rowCapacity) / 32 && words < 1 << 20) words *= 2;
    const filter = new Int32Array(words);
    for (let row = 0; row < this.n; row++) this.filterRow(filter, row);
    return filter;
  }

  private filterRow(filter: Int32Array, row: number): void {
    const h = timestampHash(this.rowU32[4 * row], this.rowU32[4 * row + 1]);
    filter[h & (filter.length - 1)] |= filterBits(h);
  }

  /**
   * Entries with fromNs <= ts < throughNs by timestamp, equal timestamps in arrival order (the
   * reverse backward), as of this call.
   */
  iterator(fromNs: bigint, throughNs: bigint, direction: Direction): EntryCursor {
    if (this.n === 0) return new MergeCursor([], fromNs, throughNs, direction);
    const run = this.snapshot();
    const source = { minTs: this.minTs, maxTs: this.maxTs, load: () => run };
    return new MergeCursor([source], fromNs, throughNs, direction);
  }

  /** A view of the current entries in order; stays valid (and unchanged) after later appends. */
  snapshot(): EntryRun {
    this.shared = true;
    return this.view();
  }

  /**
   * The current entries for a caller that is done with them before this block changes again
   * (cutting it into a block); unlike `snapshot`, lets `recycle` reuse the buffers.
   */
  transientView(): EntryRun {
    if (this.pages === null || this.pages.length === 0) return this.view();
    // Joined into scratch space the caller is done with first: no buffer for a block's life.
    transientLines = this.joinPages(transientLines);
    return this.view(transientLines);
  }

  /**
   * An empty block for the same symbols: this block's buffers emptied and reused when no
   * snapshot of them was handed out, else fresh ones presized to this block's size. This block
   * must not be used afterwards.
   */
  recycle(): HeadBlock {
    if (this.shared) return new HeadBlock(this.symbols, this.capacity);
    if (this.pages !== null && this.pages.length > 0) {
      // The pages again, in the order they were filled: a block that fills up like the last
      // one takes no new page.
      this.sparePages = [...this.pages.slice(1), this.lines, ...(this.sparePages ?? [])];
      this.startPages(this.pages[0]);
    }
    this.n = 0;
    this.lineEnd = 0;
    this.smEnd = 0;
    this.viewCache = null;
    this.bytes = 0;
    this.minTs = 0n;
    this.maxTs = 0n;
    this.inOrder = true;
    this.index = null;
    this.chain = null;
    this.tsFilter = null;
    this.filterLookups = 0;
    this.filterHits = 0;
    this.sortedCache = undefined;
    this.lastMetadata = null;
    this.lastIds = [];
    this.lastIdCount = 0;
    this.lastMetadataBytes = 0;
    return this;
  }

  /**
   * The rows as a block payload (`encodeBlockPayload`), for a caller done with them before
   * this block changes again, as with `transientView`. Rows in arrival order copy their lines
   * page by page into the payload, with no joined copy of them first.
   */
  encodePayload(symbolByteLengths: readonly number[], pool?: SlabPool): EncodedPayload {
    if (this.pages === null || this.pages.length === 0 || this.sortedOrder() !== null) {
      return encodeBlockPayload(this.transientView(), symbolByteLengths, pool);
    }
    // The columns alone: the payload takes the lines from the pages.
    return encodeBlockPayload(
      this.view(NO_LINES),
      symbolByteLengths,
      pool,
      (target, at, from, to) => this.copyLines(target, at, from, to),
    );
  }

  /** Copies the line bytes at offsets [from, to), over all pages, to `target` at `at`. */
  private copyLines(target: Buffer, at: number, from: number, to: number): void {
    const pages = this.pages ?? [];
    const starts = this.pageStarts ?? [];
    for (let i = 0; i <= pages.length; i++) {
      const page = i < pages.length ? pages[i] : this.lines;
      const start = i < pages.length ? starts[i] : this.pageBase;
      const end =
        i + 1 < pages.length ? starts[i + 1] : i < pages.length ? this.pageBase : this.lineEnd;
      const lo = Math.max(from, start);
      const hi = Math.min(to, end);
      if (lo < hi) page.copy(target, at + lo - from, lo - start, hi - start);
    }
  }

  /**
   * The rows as columns (copies: they stay as they are whatever is appended later). The pages
   * are joined into one, which becomes the page appended to next (readers keep reading it up
   * to their end; appends only write past it). `joined` skips that: the caller joined them.
   */
  private view(joined?: Buffer): EntryRun {
    if (this.viewCache !== null) return this.viewCache;
    if (joined === undefined && this.pages !== null && this.pages.length > 0) {
      const room = this.lines.length - (this.lineEnd - this.pageBase);
      this.startPages(this.joinPages(Buffer.allocUnsafe(this.lineEnd + room)));
    }
    const n = this.n;
    const ts = new BigInt64Array(n);
    const lineOffsets = new Uint32Array(n + 1);
    const smOffsets = new Uint32Array(n + 1);
    const rowTs = this.rowTs;
    const rowU32 = this.rowU32;
    for (let r = 0; r < n; r++) {
      ts[r] = rowTs[2 * r];
      lineOffsets[r] = rowU32[4 * r + 2];
      smOffsets[r] = rowU32[4 * r + 3];
    }
    lineOffsets[n] = this.lineEnd;
    smOffsets[n] = this.smEnd;
    const run: EntryRun = {
      count: n,
      ts,
      lineOffsets,
      lines: joined ?? this.lines,
      smOffsets,
      smIds: this.smIds,
      symbols: this.symbols.strings,
      order: this.sortedOrder(),
    };
    if (joined === undefined) this.viewCache = run;
    return run;
  }

  /** The lines of all pages, one after another, in `into` (grown when short); returns it. */
  private joinPages(into: Buffer): Buffer {
    const out = into.length >= this.lineEnd ? into : Buffer.allocUnsafe(this.lineEnd);
    this.copyLines(out, 0, 0, this.lineEnd);
    return out;
  }

  /** Makes `page` the only one, holding the lines from offset 0 on. */
  private startPages(page: Buffer): void {
    this.lines = page;
    this.pageBase = 0;
    this.pages!.length = 0;
    this.pageStarts!.length = 0;
  }

  /**
   * Makes a page with room for `need` bytes the one appended to (a spare one when it is big
   * enough, else a new one); returns where the line goes in it (0).
   */
  private nextPage(need: number): number {
    const used = this.lineEnd - this.pageBase;
    const last = this.lines;
    if (used > 0) {
      (this.pages ??= []).push(last);
      (this.pageStarts ??= []).push(this.pageBase);
      this.pageBase = this.lineEnd;
    }
    const spare = this.sparePages;
    if (spare !== null && spare.length > 0 && spare[0].length >= need) {
      this.lines = spare.shift()!;
    } else {
      const size = Math.min(Math.max(last.length * 2, SECOND_PAGE_BYTES), MAX_PAGE_BYTES);
      this.lines = Buffer.allocUnsafe(Math.max(need, size));
    }
    return 0;
  }

  /** Null while rows arrived in timestamp order; else rows stably sorted by timestamp. */
  private sortedOrder(): Uint32Array | null {
    if (this.sortedCache !== undefined) return this.sortedCache;
    let order: Uint32Array | null = null;
    if (!this.inOrder) {
      order = new Uint32Array(this.n);
      for (let i = 0; i < this.n; i++) order[i] = i;
      // Ties go to the earlier row: a stable sort, so equal timestamps keep arrival order.
      if (!this.sortPacked(order)) {
        const ts = this.rowTs;
        order.sort((a, b) => (ts[2 * a] < ts[2 * b] ? -1 : ts[2 * a] > ts[2 * b] ? 1 : a - b));
      }
    }
    this.sortedCache = order;
    return order;
  }

  /**
   * Sorts `order` (rows 0..n-1) by time, ties by row, as doubles sorted natively: each row's
   * offset from the block's first timestamp (from the rows' 32-bit words) × 2^bits + its row,
   * read back from the low bits. A comparator reading the BigInt64Array makes a BigInt per
   * read and is called per comparison: three times the time. False (nothing done) when the
   * block spans too long for the packed values to stay exact below 2^53.
   */
  private sortPacked(order: Uint32Array): boolean {
    const n = this.n;
    let scale = 1;
    while (scale < n) scale *= 2;
    if (!LITTLE_ENDIAN || (this.maxTs - this.minTs + 1n) * BigInt(scale) > MAX_EXACT_DOUBLE) {
      return false;
    }
    TS_SCRATCH[0] = this.minTs;
    const minLo = TS_WORDS[0];
    const minHi = TS_WORDS[1] | 0;
    const rows = this.rowU32;
    const packed = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const offset = ((rows[4 * r + 1] | 0) - minHi) * 4294967296 + (rows[4 * r] - minLo);
      packed[r] = offset * scale + r;
    }
    packed.sort();
    for (let i = 0; i < n; i++) order[i] = packed[i] % scale;
    return true;
  }

  private lineEquals(row: number, line: Buffer): boolean {
    const start = this.rowU32[4 * row + 2];
    const end = row + 1 < this.n ? this.rowU32[4 * row + 6] : this.lineEnd;
    if (end - start !== line.length) return false;
    let page = this.lines;
    let base = this.pageBase;
    if (start < base) {
      // An earlier page: the last one starting at or before the line (a line is never split).
      const starts = this.pageStarts!;
      let i = starts.length - 1;
      while (starts[i] > start) i--;
      page = this.pages![i];
      base = starts[i];
    }
    return page.compare(line, 0, line.length, start - base, end - base) === 0;
  }

  private buildIndex(): this {
    // Buckets at least twice the rows the arrays hold: chains stay about one row long.
    let size = 64;
    while (size < 2 * this.rowCapacity) size *= 2;
    const index = new Int32Array(size).fill(-1);
    const chain = new Int32Array(this.rowCapacity);
    const rows = this.rowU32;
    const mask = size - 1;
    for (let row = 0; row < this.n; row++) {
      const b = bucketOf(rows[4 * row], rows[4 * row + 1], mask);
      chain[row] = index[b];
      index[b] = row;
    }
    this.index = index;
    this.chain = chain;
    this.tsFilter = null;
    return this;
  }

  private indexRow(row: number): void {
    const index = this.index!;
    const b = bucketOf(this.rowU32[4 * row], this.rowU32[4 * row + 1], index.length - 1);
    this.chain![row] = index[b];
    index[b] = row;
  }

  private indexedContains(timestampNs: bigint, line: Buffer): boolean {
    TS_SCRATCH[0] = timestampNs;
    const lo = TS_WORDS[0];
    const hi = TS_WORDS[1];
    const rows = this.rowU32;
    const chain = this.chain!;
    const index = this.index!;
    for (let row = index[bucketOf(lo, hi, index.length - 1)]; row >= 0; row = chain[row]) {
      if (rows[4 * row] === lo && rows[4 * row + 1] === hi && this.lineEquals(row, line)) {
        return true;
      }
    }
    return false;
  }

  /** New, empty row arrays for `rows` rows. */
  private setRowCapacity(rows: number): void {
    this.rowTs = new BigInt64Array(2 * rows);
    this.rowU32 = new Uint32Array(this.rowTs.buffer);
    this.rowCapacity = rows;
  }

  private ensureCapacity(entries: number, smIds: number): void {
    if (entries > this.rowCapacity) {
      const cap = Math.max(this.rowCapacity * 2, SECOND_ENTRIES);
      const rows = this.rowTs;
      this.setRowCapacity(cap);
      this.rowTs.set(rows.subarray(0, 2 * this.n));
      // More rows than the buckets were sized for: rebuilt over the copied rows.
      if (this.index !== null) this.buildIndex();
      else if (this.tsFilter !== null) this.tsFilter = this.buildFilter();
    }
    const smEnd = this.smEnd + smIds;
    if (smEnd > this.smIds.length) {
      this.smIds = grow(this.smIds, new Uint32Array(Math.max(smEnd, this.smIds.length * 2)));
    }
  }
}

/** Set while `fromRun` constructs a block (see the constructor). */
let adoptingRun = false;
/** The metadata ids of a block before its constructor gives it its own. */
const NO_IDS = new Uint32Array(0);

const LITTLE_ENDIAN = endianness() === 'LE';
/** The largest integer a double holds exactly, and all below it (`sortPacked`). */
const MAX_EXACT_DOUBLE = BigInt(Number.MAX_SAFE_INTEGER);

/** A timestamp's two 32-bit words, as the row arrays hold them (`indexedContains`). */
const TS_SCRATCH = new BigInt64Array(1);
const TS_WORDS = new Uint32Array(TS_SCRATCH.buffer);

/** A 32-bit hash of a timestamp given as its two 32-bit words (index buckets, filter bits). */
function timestampHash(lo: number, hi: number): number {
  const h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  return h ^ (h >>> 15);
}

/** The duplicate index's bucket of a timestamp given as its two 32-bit words. */
function bucketOf(lo: number, hi: number, mask: number): number {
  return timestampHash(lo, hi) & mask;
}

/**
 * The timestamp filter is blocked: a hash's low bits pick one 32-bit word (at most 2^20 of
 * them), its top ten bits the two bits set in that word, so a lookup and the insert after it
 * touch one word (false hits ~2 % at 16 bits per row).
 */
function filterBits(h: number): number {
  return (1 << ((h >>> 22) & 31)) | (1 << (h >>> 27));
}

/** Where `transientView` joins a block's pages; reused, as its callers finish with it first. */
let transientLines: Buffer = Buffer.alloc(0);
/** The `lines` of a run whose lines are copied from the pages instead (`encodePayload`). */
const NO_LINES: Buffer = Buffer.alloc(0);

function grow<T extends { set(from: T): void }>(from: T, to: T): T {
  to.set(from);
  return to;
}
