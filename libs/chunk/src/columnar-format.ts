import { crc32 } from '@node-rs/crc32';
import { decodeBlockPayload } from './block';
import {
  type ChunkContents,
  CHUNK_MAGIC,
  decodeChunk,
  type DecodeChecks,
  FOOTER_SIZE,
  HEADER_SIZE,
  type StoredBlock,
} from './chunk-format';
import { compress, decompress, encodingFromId, encodingId } from './codecs';
import {
  type ColumnarLayout,
  type ColumnMeta,
  ColumnKind,
  encodeColumnarBlock,
} from './columnar-block';
import { ChunkFormatError } from './errors';
import type { ChunkEncoding } from './options';
import { SymbolTable } from './symbols';
import { timeOrderedRuns } from './time-ordered-runs';
import { TokenFilter } from './token-filter';
import { ValueFilter } from './value-filter';
import { pushUvarint, pushUvarint64, Uvarint64Reader } from './varint64';

/** The chunk version byte of the columnar format (version 1 is the row format of block.ts). */
export const COLUMNAR_VERSION = 2;
/** Header byte 6, bit 0: each block's meta ends with a metadata value filter. */
const FLAG_VALUE_FILTERS = 1;

/** The names of the chunk formats a schema period can ask for. */
export type ChunkFormatName = 'blocks' | 'columnar';
export const CHUNK_FORMATS: readonly ChunkFormatName[] = ['blocks', 'columnar'];

/** A block of a columnar chunk: its columns' bytes back to back (`data`) and their layout. */
export interface ColumnarStoredBlock extends StoredBlock {
  readonly layout: ColumnarLayout;
}

export interface ColumnarContents {
  /** The codec of the symbol table. */
  readonly encoding: ChunkEncoding;
  readonly blocks: readonly ColumnarStoredBlock[];
  readonly symbols: SymbolTable;
}

const KINDS = new Set<number>([
  ColumnKind.Timestamps,
  ColumnKind.LineLengths,
  ColumnKind.Lines,
  ColumnKind.Metadata,
  ColumnKind.MetadataPairs,
]);

/** Whether `buf` holds a chunk of the columnar format (by its header; not validated). */
export function isColumnarChunk(buf: Buffer): boolean {
  return (
    buf.length >= HEADER_SIZE && buf.readUInt32LE(0) === CHUNK_MAGIC && buf[4] === COLUMNAR_VERSION
  );
}

function pushU32(out: number[], v: number): void {
  out.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
}

/** Writes a columnar chunk; the layout is documented in docs/storage.md. */
export function encodeColumnarChunk({ encoding, blocks, symbols }: ColumnarContents): Buffer {
  const symbolsRaw = symbols.encode();
  const symbolsData = compress(encoding, symbolsRaw);
  // Only chunks with a value filter carry the field, so others stay readable by older readers.
  const valueFilters = blocks.some((b) => b.layout.values !== null);
  // The meta as pieces: varint fields gather in `meta`, each filter's bits join as they are.
  const pieces: Uint8Array[] = [];
  let meta: number[] = [];
  pushUvarint(meta, blocks.length);
  for (const b of blocks) {
    pushUvarint64(meta, BigInt.asUintN(64, b.minTs));
    pushUvarint64(meta, b.maxTs - b.minTs);
    pushUvarint(meta, b.entries);
    pushUvarint(meta, b.rawBytes);
    pushUvarint(meta, b.layout.lineBytes);
    pushU32(meta, b.crc);
    pushUvarint(meta, b.layout.columns.length);
    for (const c of b.layout.columns) {
      meta.push(c.kind, encodingId(c.codec));
      pushUvarint(meta, c.name);
      pushUvarint(meta, c.length);
      pushUvarint(meta, c.rawLength);
      if (c.kind === ColumnKind.Metadata) {
        if (c.values === null) pushUvarint(meta, 0);
        else {
          pushUvarint(meta, c.values.length + 1);
          for (const v of c.values) pushUvarint(meta, v);
        }
      }
    }
    const filters = [b.layout.filter?.bits];
    if (valueFilters) filters.push(b.layout.values?.bits);
    for (const bits of filters) {
      pushUvarint(meta, bits === undefined ? 0 : bits.length);
      if (bits !== undefined) {
        pieces.push(Uint8Array.from(meta), bits);
        meta = [];
      }
    }
  }
  pushUvarint(meta, symbolsData.length);
  pushUvarint(meta, symbolsRaw.length);
  pushU32(meta, crc32(symbolsData));
  pieces.push(Uint8Array.from(meta));
  const metaBytes = Buffer.concat(pieces);

  let blocksSize = 0;
  for (const b of blocks) blocksSize += b.data.length;
  const metaOffset = HEADER_SIZE + blocksSize + symbolsData.length;
  const total = metaOffset + metaBytes.length + FOOTER_SIZE;
  if (total > 0xffffffff)
    throw new RangeError(`chunk of ${total} bytes exceeds the 4 GiB format limit`);
  const out = Buffer.allocUnsafe(total);
  out.writeUInt32LE(CHUNK_MAGIC, 0);
  out.writeUInt8(COLUMNAR_VERSION, 4);
  out.writeUInt8(encodingId(encoding), 5);
  out.writeUInt8(valueFilters ? FLAG_VALUE_FILTERS : 0, 6);
  out.writeUInt8(0, 7);
  let pos = HEADER_SIZE;
  for (const b of blocks) pos += b.data.copy(out, pos);
  pos += symbolsData.copy(out, pos);
  pos += metaBytes.copy(out, pos);
  const metaCrc = crc32(out.subarray(metaOffset, pos), crc32(out.subarray(0, HEADER_SIZE)));
  pos = out.writeUInt32LE(metaOffset, pos);
  pos = out.writeUInt32LE(metaBytes.length, pos);
  pos = out.writeUInt32LE(metaCrc, pos);
  out.writeUInt32LE(CHUNK_MAGIC, pos);
  return out;
}

/** Reads the fixed-width fields of the meta section. */
class MetaReader extends Uvarint64Reader {
  constructor(
    private readonly bytes: Buffer,
    private readonly limit: number,
  ) {
    super(bytes, 0, limit);
  }

  num(): number {
    // No bigint per field: a block's meta is some thirty of them, read for every chunk decoded.
    const v = this.readNumber();
    if (v < 0) throw new ChunkFormatError('chunk meta number too large');
    return v;
  }

  u8(): number {
    if (this.pos >= this.limit) throw new ChunkFormatError('truncated chunk meta');
    return this.bytes[this.pos++];
  }

  u32(): number {
    if (this.pos + 4 > this.limit) throw new ChunkFormatError('truncated chunk meta');
    const v = this.bytes.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  take(n: number): Buffer {
    if (this.pos + n > this.limit) throw new ChunkFormatError('truncated chunk meta');
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

/**
 * Parses and fully validates a columnar chunk: magic, version, layout, and every checksum
 * (`options` as for `decodeChunk`). Column bytes stay views into `buf`, decompressed when a
 * block is read.
 */
export function decodeColumnarChunk(buf: Buffer, options: DecodeChecks = {}): ColumnarContents {
  const { checksums = true, blockChecksums = checksums } = options;
  if (buf.length < HEADER_SIZE + FOOTER_SIZE)
    throw new ChunkFormatError(`chunk too short: ${buf.length} bytes`);
  if (buf.readUInt32LE(0) !== CHUNK_MAGIC) throw new ChunkFormatError('bad chunk magic');
  if (buf.readUInt32LE(buf.length - 4) !== CHUNK_MAGIC) {
    throw new ChunkFormatError('bad chunk footer magic (truncated chunk?)');
  }
  if (buf[4] !== COLUMNAR_VERSION)
    throw new ChunkFormatError(`unsupported chunk version ${buf[4]}`);
  const encoding = encodingFromId(buf[5]);
  const flags = buf[6];
  if ((flags & ~FLAG_VALUE_FILTERS) !== 0 || buf[7] !== 0) {
    throw new ChunkFormatError('reserved header bytes are not zero');
  }
  const footer = buf.length - FOOTER_SIZE;
  const metaOffset = buf.readUInt32LE(footer);
  const metaLength = buf.readUInt32LE(footer + 4);
  if (metaOffset + metaLength !== footer || metaOffset < HEADER_SIZE || metaLength < 1) {
    throw new ChunkFormatError('chunk meta section out of bounds');
  }
  const metaBytes = buf.subarray(metaOffset, footer);
  if (
    checksums &&
    crc32(metaBytes, crc32(buf.subarray(0, HEADER_SIZE))) !== buf.readUInt32LE(footer + 8)
  ) {
    throw new ChunkFormatError('chunk meta checksum mismatch');
  }
  const r = new MetaReader(metaBytes, metaBytes.length);
  const blockCount = r.num();
  const blocks: ColumnarStoredBlock[] = [];
  let offset = HEADER_SIZE;
  for (let i = 0; i < blockCount; i++) {
    const minTs = BigInt.asIntN(64, r.read());
    const maxTs = minTs + r.read();
    const entries = r.num();
    const rawBytes = r.num();
    const lineBytes = r.num();
    const crc = r.u32();
    const columnCount = r.num();
    if (entries === 0 || maxTs > 2n ** 63n - 1n)
      throw new ChunkFormatError(`block ${i} meta is invalid`);
    const columns: ColumnMeta[] = [];
    let size = 0;
    let uncompressedLength = 0;
    for (let c = 0; c < columnCount; c++) {
      const kind = r.u8();
      if (!KINDS.has(kind)) throw new ChunkFormatError(`block ${i}: unknown column kind ${kind}`);
      const codec = encodingFromId(r.u8());
      const name = r.num();
      const length = r.num();
      const rawLength = r.num();
      let values: number[] | null = null;
      if (kind === ColumnKind.Metadata) {
        const listed = r.num();
        if (listed > 0) {
          values = [];
          for (let k = 1; k < listed; k++) values.push(r.num());
        }
      }
      columns.push({
        kind: kind as ColumnKind,
        codec,
        name,
        offset: size,
        length,
        rawLength,
        values,
      });
      size += length;
      uncompressedLength += rawLength;
    }
    const filterLength = r.num();
    if (filterLength % 8 !== 0)
      throw new ChunkFormatError(`block ${i}: token filter size ${filterLength}`);
    const filter = filterLength === 0 ? null : TokenFilter.of(r.take(filterLength));
    const valuesLength = (flags & FLAG_VALUE_FILTERS) === 0 ? 0 : r.num();
    if (valuesLength % 8 !== 0)
      throw new ChunkFormatError(`block ${i}: value filter size ${valuesLength}`);
    const values = valuesLength === 0 ? null : ValueFilter.of(r.take(valuesLength));
    if (offset + size > metaOffset) throw new ChunkFormatError(`block ${i} out of bounds`);
    const data = buf.subarray(offset, offset + size);
    if (blockChecksums && crc32(data) !== crc)
      throw new ChunkFormatError(`block ${i} checksum mismatch`);
    offset += size;
    blocks.push({
      minTs,
      maxTs,
      entries,
      rawBytes,
      uncompressedLength,
      data,
      crc,
      layout: { columns, lineBytes, filter, values },
    });
  }
  const symbolsLength = r.num();
  const symbolsRawLength = r.num();
  const symbolsCrc = r.u32();
  if (r.pos !== metaBytes.length) throw new ChunkFormatError('trailing bytes in chunk meta');
  if (offset + symbolsLength !== metaOffset)
    throw new ChunkFormatError('symbol table out of bounds');
  const symbolsData = buf.subarray(offset, metaOffset);
  if (checksums && crc32(symbolsData) !== symbolsCrc) {
    throw new ChunkFormatError('symbol table checksum mismatch');
  }
  const symbols = SymbolTable.decode(decompress(encoding, symbolsData, symbolsRawLength));
  return { encoding, blocks, symbols };
}

/** Encodes the blocks of a row-format chunk's contents column by column. */
export function columnarBlocksOf({
  encoding,
  blocks,
  symbols,
}: ChunkContents): ColumnarStoredBlock[] {
  const runs = blocks.map((b) => {
    const payload = decompress(encoding, b.data, b.uncompressedLength);
    return decodeBlockPayload(payload, b, symbols.strings, symbols.byteLengths);
  });
  // Blocks are cut again to about the size of the largest: the head's last may be smaller.
  const target = blocks.reduce((max, b) => Math.max(max, b.rawBytes), 0);
  return timeOrderedRuns(runs, target, symbols.byteLengths).map((run) => {
    const c = encodeColumnarBlock(run, symbols.byteLengths);
    return { ...c, crc: crc32(c.data) };
  });
}

/**
 * Chunk bytes in the format `format` asks for: row-format bytes are re-encoded column by
 * column for 'columnar'; bytes already in the asked format are returned as they are.
 * Throws ChunkFormatError on corrupt bytes. (Columnar to 'blocks' is not needed: a period
 * asking for blocks gets the ingester's row-format bytes.)
 */
export function recodeChunk(buf: Buffer, format: ChunkFormatName): Buffer {
  if (format === 'blocks' || isColumnarChunk(buf)) return buf;
  const contents = decodeChunk(buf);
  return encodeColumnarChunk({
    encoding: contents.encoding === 'none' ? 'none' : 'lz4',
    blocks: columnarBlocksOf(contents),
    symbols: contents.symbols,
  });
}
