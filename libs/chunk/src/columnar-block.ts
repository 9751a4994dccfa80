import { endianness } from 'node:os';
import { compress, decompress, decompressInto } from './codecs';
import { type EntryRun, rowAt } from './entry-run';
import { ChunkFormatError } from './errors';
import type { ChunkEncoding } from './options';
import { TokenFilter } from './token-filter';
import { ValueFilter } from './value-filter';
import { pushUvarint, pushUvarint64, Uvarint64Reader } from './varint64';
import { TimestampDeltaReader } from './timestamp-deltas';
import { UvarintReader } from './varint';

/** What a column of a columnar block holds. */
export const enum ColumnKind {
  /** The first timestamp as int64 LE, then uvarint deltas to the one before. */
  Timestamps = 0,
  /** A uvarint byte length per entry. */
  LineLengths = 1,
  /** The line bytes back to back. */
  Lines = 2,
  /** One structured-metadata name: per entry uvarint (value symbol id + 1), 0 = absent. */
  Metadata = 3,
  /** Any metadata in the row layout: per entry a uvarint pair count, then all (name, value) ids. */
  MetadataPairs = 4,
}

/** Metadata columns remember their block's distinct values when they have at most this many. */
export const MAX_LISTED_VALUES = 16;

/** One column of a stored block: where its bytes are, how they are compressed, its statistics. */
export interface ColumnMeta {
  readonly kind: ColumnKind;
  readonly codec: ChunkEncoding;
  /** Metadata columns: the name's symbol id (else 0). */
  readonly name: number;
  readonly offset: number;
  readonly length: number;
  readonly rawLength: number;
  /**
   * Metadata columns: the distinct value symbol ids in the block, ascending, when there are at
   * most MAX_LISTED_VALUES of them; null when more (or for other columns).
   */
  readonly values: readonly number[] | null;
}

/**
 * A columnar block's layout: its columns (offsets relative to the block), token filter, and
 * the filter of the metadata values its columns do not list (null when every column lists its
 * values, or the chunk predates value filters).
 */
export interface ColumnarLayout {
  readonly columns: readonly ColumnMeta[];
  readonly lineBytes: number;
  readonly filter: TokenFilter | null;
  readonly values: ValueFilter | null;
}

/** A block encoded column by column, with what its meta records. */
export interface EncodedColumnarBlock {
  readonly data: Buffer;
  readonly layout: ColumnarLayout;
  readonly minTs: bigint;
  readonly maxTs: bigint;
  readonly entries: number;
  readonly rawBytes: number;
  readonly uncompressedLength: number;
}

/**
 * Codec per column, chosen by measuring snappy, lz4 and zstd on the bench's mixed data
 * (docs/storage.md): zstd keeps lines in 0.64x the bytes of snappy or lz4, and a `|=` scan over
 * them measured about as fast (the search, not the decompression, is most of its time). Small
 * columns take lz4 (zstd's per-call cost is larger than the bytes it saves there) and stay
 * uncompressed unless compressing saves an eighth.
 */
const LINE_CODEC: ChunkEncoding = 'zstd';
const SMALL_CODEC: ChunkEncoding = 'lz4';
/** Columns smaller than this are stored as they are: a codec call costs more than it saves. */
const MIN_COMPRESSED_COLUMN = 256;

function packColumn(
  kind: ColumnKind,
  name: number,
  raw: Buffer,
  values: readonly number[] | null,
): { meta: Omit<ColumnMeta, 'offset'>; bytes: Buffer } {
  let codec: ChunkEncoding = 'none';
  let bytes = raw;
  if (kind === ColumnKind.Lines) {
    codec = LINE_CODEC;
    bytes = compress(codec, raw);
  } else if (raw.length >= MIN_COMPRESSED_COLUMN) {
    const c = compress(SMALL_CODEC, raw);
    if (c.length <= raw.length - raw.length / 8) {
      codec = SMALL_CODEC;
      bytes = c;
    }
  }
  return {
    meta: { kind, codec, name, length: bytes.length, rawLength: raw.length, values },
    bytes,
  };
}

/**
 * Encodes a run's entries (in its order) as a columnar block: timestamps, line lengths, lines,
 * and one column per structured-metadata name, or one column of pairs when some entry's names
 * repeat or come in another order than the others' (so the entries read back exactly).
 */
export function encodeColumnarBlock(
  run: EntryRun,
  symbolByteLengths: readonly number[],
): EncodedColumnarBlock {
  const n = run.count;
  if (n === 0) throw new RangeError('a columnar block needs at least one entry');
  const ts: number[] = [];
  let prev = run.ts[rowAt(run, 0)];
  const first = Buffer.allocUnsafe(8);
  first.writeBigInt64LE(prev, 0);
  for (let pos = 1; pos < n; pos++) {
    const t = run.ts[rowAt(run, pos)];
    if (t < prev) throw new RangeError('a columnar block needs entries in timestamp order');
    pushUvarint64(ts, t - prev);
    prev = t;
  }
  const minTs = run.ts[rowAt(run, 0)];
  const maxTs = prev;

  const lens: number[] = [];
  let lineBytes = 0;
  for (let pos = 0; pos < n; pos++) {
    const row = rowAt(run, pos);
    const len = run.lineOffsets[row + 1] - run.lineOffsets[row];
    pushUvarint(lens, len);
    lineBytes += len;
  }
  const lines = Buffer.allocUnsafe(lineBytes);
  let w = 0;
  for (let pos = 0; pos < n; pos++) {
    const row = rowAt(run, pos);
    w += run.lines.copy(lines, w, run.lineOffsets[row], run.lineOffsets[row + 1]);
  }

  let rawBytes = lineBytes;
  const packed = [
    packColumn(ColumnKind.Timestamps, 0, Buffer.concat([first, Buffer.from(ts)]), null),
    packColumn(ColumnKind.LineLengths, 0, Buffer.from(lens), null),
    packColumn(ColumnKind.Lines, 0, lines, null),
  ];
  const meta = metadataColumns(run);
  // Values of the columns that do not list theirs, for the block's value filter.
  const unlisted = new Set<number>();
  if (meta === 'pairs') {
    const out: number[] = [];
    for (let pos = 0; pos < n; pos++) {
      const row = rowAt(run, pos);
      pushUvarint(out, (run.smOffsets[row + 1] - run.smOffsets[row]) / 2);
    }
    for (let pos = 0; pos < n; pos++) {
      const row = rowAt(run, pos);
      for (let i = run.smOffsets[row]; i < run.smOffsets[row + 1]; i++) {
        pushUvarint(out, run.smIds[i]);
        rawBytes += symbolByteLengths[run.smIds[i]];
        if ((i - run.smOffsets[row]) % 2 === 1) unlisted.add(run.smIds[i]);
      }
    }
    packed.push(packColumn(ColumnKind.MetadataPairs, 0, Buffer.from(out), null));
  } else {
    for (const [name, cells] of meta) {
      const out: number[] = [];
      const distinct = new Set<number>();
      for (let pos = 0; pos < n; pos++) {
        const v = cells[pos];
        pushUvarint(out, v);
        if (v !== 0) {
          distinct.add(v - 1);
          rawBytes += symbolByteLengths[name] + symbolByteLengths[v - 1];
        }
      }
      const values =
        distinct.size <= MAX_LISTED_VALUES ? [...distinct].sort((a, b) => a - b) : null;
      if (values === null) for (const v of distinct) unlisted.add(v);
      packed.push(packColumn(ColumnKind.Metadata, name, Buffer.from(out), values));
    }
  }

  const columns: ColumnMeta[] = [];
  let offset = 0;
  let uncompressedLength = 0;
  for (const p of packed) {
    columns.push({ ...p.meta, offset });
    offset += p.bytes.length;
    uncompressedLength += p.meta.rawLength;
  }
  return {
    data: Buffer.concat(packed.map((p) => p.bytes)),
    layout: {
      columns,
      lineBytes,
      filter: TokenFilter.build(lines, 0, lines.length),
      values: unlisted.size === 0 ? null : ValueFilter.build(unlisted, unlisted.size),
    },
    minTs,
    maxTs,
    entries: n,
    rawBytes,
    uncompressedLength,
  };
}

/**
 * The run's metadata as columns, name id -> per position (value id + 1, 0 = absent), in the
 * order names first appear; 'pairs' when a row repeats a name or orders its names otherwise.
 */
function metadataColumns(run: EntryRun): Map<number, Uint32Array> | 'pairs' {
  const columns = new Map<number, Uint32Array>();
  const rank = new Map<number, number>();
  for (let pos = 0; pos < run.count; pos++) {
    const row = rowAt(run, pos);
    let last = -1;
    for (let i = run.smOffsets[row]; i < run.smOffsets[row + 1]; i += 2) {
      const name = run.smIds[i];
      let r = rank.get(name);
      if (r === undefined) {
        r = rank.size;
        rank.set(name, r);
        columns.set(name, new Uint32Array(run.count));
      }
      if (r <= last) return 'pairs';
      last = r;
      columns.get(name)![pos] = run.smIds[i + 1] + 1;
    }
  }
  // A name's rank never changes once given, so each row was checked against final ranks.
  return columns;
}

/** A block's structured metadata by rows: row r's pairs are `ids[offsets[r] .. offsets[r + 1])`. */
interface MetadataRows {
  readonly offsets: Uint32Array;
  readonly ids: Uint32Array;
}

/**
 * A decoded columnar block: timestamps and line offsets are read at once; the line bytes are
 * decompressed only when first read (a count over time never reads them), the metadata
 * columns only when some entry's metadata is (a count with line filters never reads them).
 */
class ColumnarRun implements EntryRun {
  readonly order = null;
  readonly onePairName?: number;
  private decoded: Buffer | null = null;
  private metadata: MetadataRows | null = null;
  private cells: Buffer | null = null;

  constructor(
    readonly count: number,
    readonly ts: BigInt64Array,
    readonly lineOffsets: Uint32Array,
    readonly symbols: readonly string[],
    private readonly linesColumn: () => Buffer,
    private readonly linesColumnInto: (into: Buffer) => boolean,
    private readonly metadataColumns: () => MetadataRows,
    /** A lone Metadata column whose cells are one byte each (read a row at a time), or null. */
    private readonly byteCells: { readonly name: number; readonly read: () => Buffer } | null,
    /** At most how many (name, value) ids the metadata columns decode to. */
    private readonly maxMetadataIds: number,
  ) {
    if (byteCells !== null) this.onePairName = byteCells.name;
  }

  metadataBytes(): number {
    const m = this.metadata;
    if (m !== null) return m.offsets.byteLength + m.ids.byteLength;
    return 4 * (this.count + 1) + 4 * this.maxMetadataIds;
  }

  get lines(): Buffer {
    return (this.decoded ??= this.linesColumn());
  }

  linesInto(into: Buffer): boolean {
    return this.decoded === null && this.linesColumnInto(into);
  }

  get smOffsets(): Uint32Array {
    return (this.metadata ??= this.metadataColumns()).offsets;
  }

  get smIds(): Uint32Array {
    return (this.metadata ??= this.metadataColumns()).ids;
  }

  onePairValue(row: number): number {
    const cells = (this.cells ??= this.byteCells!.read());
    const v = cells[row];
    if (v > this.symbols.length || v >= 0x80) {
      throw new ChunkFormatError(`metadata symbol id ${v - 1} out of range`);
    }
    return v - 1;
  }
}

const LITTLE_ENDIAN = endianness() === 'LE';
const TWO_32 = 0x100000000;

/**
 * The timestamps column: the first as int64, then uvarint deltas. A block spanning under 2^53
 * ns (104 days; every real one) is summed in numbers and written as 32-bit halves, with no
 * BigInt made per entry; others go through BigInt.
 */
export function decodeTimestamps(bytes: Buffer, n: number, span: bigint): BigInt64Array {
  const ts = new BigInt64Array(n);
  if (!LITTLE_ENDIAN || span >= 2n ** 53n) {
    let t = bytes.readBigInt64LE(0);
    ts[0] = t;
    const tr = new Uvarint64Reader(bytes, 8, bytes.length);
    for (let i = 1; i < n; i++) {
      t += tr.read();
      ts[i] = t;
    }
    if (tr.pos !== bytes.length) throw new ChunkFormatError('trailing bytes in timestamps column');
    return ts;
  }
  // One pass: each delta read and added to the current timestamp, kept as 32-bit halves and
  // carried from entry to entry (no BigInt, no division per entry, no array of offsets).
  const halves = new Uint32Array(ts.buffer);
  let lo = bytes.readUInt32LE(0);
  let hi = bytes.readUInt32LE(4);
  const total = Number(span);
  const deltas = new TimestampDeltaReader(bytes, 8);
  let acc = 0;
  if (n > 0) {
    halves[0] = lo;
    halves[1] = hi;
  }
  for (let i = 1; i < n; i++) {
    const delta = deltas.read();
    acc += delta;
    if (acc > total) throw new ChunkFormatError('timestamps exceed the block span');
    if (delta < TWO_32) {
      lo += delta;
      if (lo >= TWO_32) {
        lo -= TWO_32;
        hi = hi === 0xffffffff ? 0 : hi + 1;
      }
    } else {
      const dHi = Math.floor(delta / TWO_32);
      lo += delta - dHi * TWO_32;
      const carry = lo >= TWO_32 ? 1 : 0;
      lo -= carry * TWO_32;
      hi = (hi + dHi + carry) % TWO_32;
    }
    halves[2 * i] = lo;
    halves[2 * i + 1] = hi;
  }
  if (deltas.pos !== bytes.length)
    throw new ChunkFormatError('trailing bytes in timestamps column');
  if (acc !== total) throw new ChunkFormatError('block time range does not match its meta');
  return ts;
}

/**
 * The timestamps column (the first as int64, then uvarint deltas) as offsets from a base: the
 * first entry's offset is `base`, and the deltas must sum to `span` (the block's meta).
 */
export function timestampOffsets(
  bytes: Buffer,
  n: number,
  base: number,
  span: number,
): Float64Array {
  const out = new Float64Array(n);
  const deltas = new TimestampDeltaReader(bytes, 8);
  let acc = 0;
  if (n > 0) out[0] = base;
  for (let i = 1; i < n; i++) {
    acc += deltas.read();
    out[i] = base + acc;
  }
  // Deltas are not negative, so the sum only grows (rounding too): one check after the last.
  if (deltas.pos !== bytes.length)
    throw new ChunkFormatError('trailing bytes in timestamps column');
  if (acc !== span) throw new ChunkFormatError('block time range does not match its meta');
  return out;
}

/** What decoding a block checks it against: its meta. */
export interface BlockBounds {
  readonly minTs: bigint;
  readonly maxTs: bigint;
  readonly entries: number;
  readonly rawBytes: number;
}

export function columnBytes(data: Buffer, c: ColumnMeta): Buffer {
  const stored = data.subarray(c.offset, c.offset + c.length);
  if (stored.length !== c.length) throw new ChunkFormatError('column runs past its block');
  // lz4's bytes start with the size they decompress to: check it before the codec allocates it.
  if (c.codec === 'lz4' && (stored.length < 4 || stored.readUInt32LE(0) !== c.rawLength)) {
    throw new ChunkFormatError('lz4 column size does not match its meta');
  }
  return decompress(c.codec, stored, c.rawLength);
}

/** `columnBytes` written into `into` (its raw length); false when the codec cannot. */
function columnBytesInto(data: Buffer, c: ColumnMeta, into: Buffer): boolean {
  const stored = data.subarray(c.offset, c.offset + c.length);
  if (stored.length !== c.length) throw new ChunkFormatError('column runs past its block');
  if (into.length !== c.rawLength) throw new RangeError('buffer is not the column size');
  return decompressInto(c.codec, stored, into);
}

/**
 * Decodes a columnar block's bytes (`data`, its columns back to back) into a run. Every length
 * and id is checked, so corrupt bytes raise ChunkFormatError (those of the lines column and of
 * the metadata columns when they are first read).
 */
export function decodeColumnarBlock(
  data: Buffer,
  layout: ColumnarLayout,
  meta: BlockBounds,
  symbols: readonly string[],
  symbolByteLengths: readonly number[],
): EntryRun {
  const n = meta.entries;
  let tsCol: ColumnMeta | undefined;
  let lenCol: ColumnMeta | undefined;
  let lineCol: ColumnMeta | undefined;
  const metaCols: ColumnMeta[] = [];
  for (const c of layout.columns) {
    if (c.kind === ColumnKind.Timestamps) tsCol = c;
    else if (c.kind === ColumnKind.LineLengths) lenCol = c;
    else if (c.kind === ColumnKind.Lines) lineCol = c;
    else metaCols.push(c);
  }
  if (tsCol === undefined || lenCol === undefined || lineCol === undefined) {
    throw new ChunkFormatError('columnar block lacks a timestamps, lengths or lines column');
  }

  const tsBytes = columnBytes(data, tsCol);
  if (tsBytes.length < 8) throw new ChunkFormatError('timestamps column too short');
  const ts = decodeTimestamps(tsBytes, n, meta.maxTs - meta.minTs);
  if (ts[0] !== meta.minTs || ts[n - 1] !== meta.maxTs) {
    throw new ChunkFormatError('block time range does not match its meta');
  }

  const lenBytes = columnBytes(data, lenCol);
  const lr = new UvarintReader(lenBytes, 0, lenBytes.length);
  const lineOffsets = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const end = lineOffsets[i] + lr.read();
    if (end > layout.lineBytes) throw new ChunkFormatError('line lengths exceed the lines column');
    lineOffsets[i + 1] = end;
  }
  if (lr.pos !== lenBytes.length || lineOffsets[n] !== layout.lineBytes) {
    throw new ChunkFormatError('line lengths do not match the lines column');
  }
  if (lineCol.rawLength !== layout.lineBytes) {
    throw new ChunkFormatError('lines column length does not match its meta');
  }

  return new ColumnarRun(
    n,
    ts,
    lineOffsets,
    symbols,
    () => columnBytes(data, lineCol),
    (into) => columnBytesInto(data, lineCol, into),
    () => decodeMetadata(data, metaCols, layout.lineBytes, meta, symbols, symbolByteLengths),
    byteCellsOf(data, metaCols, n, symbols.length),
    maxMetadataIds(metaCols, n),
  );
}

/**
 * A bound on the ids `decodeMetadata` makes: a name and a value per row of each Metadata
 * column, and in a pairs column at most one per byte (each id is a uvarint).
 */
function maxMetadataIds(metaCols: readonly ColumnMeta[], n: number): number {
  let ids = 0;
  for (const c of metaCols) ids += c.kind === ColumnKind.MetadataPairs ? c.rawLength : 2 * n;
  return ids;
}

/**
 * A block's one Metadata column when its `n` cells take a byte each (value ids under 127, as
 * a block's few levels or such): row r's cell is then byte r, read without the rows before it.
 */
function byteCellsOf(
  data: Buffer,
  metaCols: readonly ColumnMeta[],
  n: number,
  symbolCount: number,
): { readonly name: number; readonly read: () => Buffer } | null {
  if (metaCols.length !== 1) return null;
  const c = metaCols[0];
  if (c.kind !== ColumnKind.Metadata || c.rawLength !== n || c.name >= symbolCount) return null;
  return { name: c.name, read: () => columnBytes(data, c) };
}

/**
 * The metadata columns of a block as rows (`metaCols`: its Metadata or MetadataPairs columns),
 * checked against the symbol table and, with the line bytes, the block's recorded size.
 */
function decodeMetadata(
  data: Buffer,
  metaCols: readonly ColumnMeta[],
  lineBytes: number,
  meta: BlockBounds,
  symbols: readonly string[],
  symbolByteLengths: readonly number[],
): MetadataRows {
  const n = meta.entries;
  let rawBytes = lineBytes;
  const smOffsets = new Uint32Array(n + 1);
  let smIds: Uint32Array;
  const pairs = metaCols.find((c) => c.kind === ColumnKind.MetadataPairs);
  if (pairs !== undefined) {
    if (metaCols.length !== 1) throw new ChunkFormatError('metadata pairs beside other columns');
    const bytes = columnBytes(data, pairs);
    const r = new UvarintReader(bytes, 0, bytes.length);
    for (let i = 0; i < n; i++) {
      const end = smOffsets[i] + 2 * r.read();
      if (end > bytes.length) throw new ChunkFormatError('metadata counts exceed block');
      smOffsets[i + 1] = end;
    }
    smIds = new Uint32Array(smOffsets[n]);
    for (let i = 0; i < smIds.length; i++) {
      const id = r.read();
      if (id >= symbols.length) throw new ChunkFormatError(`metadata symbol id ${id} out of range`);
      smIds[i] = id;
      rawBytes += symbolByteLengths[id];
    }
    if (r.pos !== bytes.length) throw new ChunkFormatError('trailing bytes in metadata column');
  } else {
    const cells: Uint32Array[] = [];
    for (const c of metaCols) {
      if (c.name >= symbols.length) throw new ChunkFormatError('metadata column name out of range');
      const bytes = columnBytes(data, c);
      const r = new UvarintReader(bytes, 0, bytes.length);
      const col = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const v = r.read();
        if (v > symbols.length)
          throw new ChunkFormatError(`metadata symbol id ${v - 1} out of range`);
        col[i] = v;
        if (v !== 0) rawBytes += symbolByteLengths[c.name] + symbolByteLengths[v - 1];
      }
      if (r.pos !== bytes.length) throw new ChunkFormatError('trailing bytes in metadata column');
      cells.push(col);
    }
    let total = 0;
    for (let i = 0; i < n; i++) {
      for (const col of cells) if (col[i] !== 0) total += 2;
      smOffsets[i + 1] = total;
    }
    smIds = new Uint32Array(total);
    let k = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < cells.length; j++) {
        const v = cells[j][i];
        if (v === 0) continue;
        smIds[k++] = metaCols[j].name;
        smIds[k++] = v - 1;
      }
    }
  }
  if (rawBytes !== meta.rawBytes) throw new ChunkFormatError('block size does not match its meta');
  return { offsets: smOffsets, ids: smIds };
}
