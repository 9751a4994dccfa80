import { crc32 } from '@node-rs/crc32';
import type { BlockMeta } from './block';
import { compress, decompress, encodingFromId, encodingId } from './codecs';
import { ChunkFormatError } from './errors';
import type { ChunkEncoding } from './options';
import { SymbolTable } from './symbols';

/** "LSCK": logsvc chunk. */
export const CHUNK_MAGIC = 0x4b43534c;
export const CHUNK_VERSION = 1;
export const HEADER_SIZE = 8;
export const FOOTER_SIZE = 16;
const BLOCK_META_SIZE = 40;
const SYMBOLS_META_SIZE = 16;

/** A compressed block as stored in a chunk. */
export interface StoredBlock extends BlockMeta {
  readonly data: Buffer;
  readonly crc: number;
}

/** Which checksums a chunk decoder checks (all by default). */
export interface DecodeChecks {
  readonly checksums?: boolean;
  /** Those of the blocks' bytes; default `checksums`. */
  readonly blockChecksums?: boolean;
}

export interface ChunkContents {
  readonly encoding: ChunkEncoding;
  readonly blocks: readonly StoredBlock[];
  readonly symbols: SymbolTable;
}

/** A compressed symbol table and its checksum. */
interface CompressedSymbols {
  readonly raw: Buffer;
  readonly data: Buffer;
  readonly crc: number;
}

/** Tables up to this size are remembered: most chunks of a WAL checkpoint share a tiny one. */
const REMEMBERED_SYMBOLS_BYTES = 64;
const lastSymbols = new Map<ChunkEncoding, CompressedSymbols>();

/**
 * The table compressed, reusing the last small table's result when the bytes are the same
 * (compression is deterministic): a checkpoint of many streams without structured metadata
 * then compresses it once, not once per stream.
 */
function compressSymbols(encoding: ChunkEncoding, raw: Buffer): CompressedSymbols {
  const last = lastSymbols.get(encoding);
  if (last !== undefined && last.raw.equals(raw)) return last;
  const data = compress(encoding, raw);
  const compressed = { raw, data, crc: crc32(data) };
  if (raw.length <= REMEMBERED_SYMBOLS_BYTES)
    lastSymbols.set(encoding, { ...compressed, raw: Buffer.from(raw) });
  return compressed;
}

/** Writes the chunk bytes; the layout is documented in the library's README.md. */
export function encodeChunk({ encoding, blocks, symbols }: ChunkContents): Buffer {
  const symbolsRaw = symbols.encode();
  const compressedSymbols = compressSymbols(encoding, symbolsRaw);
  const symbolsData = compressedSymbols.data;
  let blocksSize = 0;
  for (const b of blocks) blocksSize += b.data.length;
  const symbolsOffset = HEADER_SIZE + blocksSize;
  const metaOffset = symbolsOffset + symbolsData.length;
  const metaLength = 4 + BLOCK_META_SIZE * blocks.length + SYMBOLS_META_SIZE;
  const total = metaOffset + metaLength + FOOTER_SIZE;
  if (total > 0xffffffff)
    throw new RangeError(`chunk of ${total} bytes exceeds the 4 GiB format limit`);
  // Every byte is written below: no zero-filling (snapshots encode a chunk per query).
  const out = Buffer.allocUnsafe(total);

  out.writeUInt32LE(CHUNK_MAGIC, 0);
  out.writeUInt8(CHUNK_VERSION, 4);
  out.writeUInt8(encodingId(encoding), 5);
  out.writeUInt16LE(0, 6);
  let pos = HEADER_SIZE;
  for (const b of blocks) pos += b.data.copy(out, pos);
  symbolsData.copy(out, symbolsOffset);

  pos = metaOffset;
  pos = out.writeUInt32LE(blocks.length, pos);
  let blockOffset = HEADER_SIZE;
  for (const b of blocks) {
    pos = out.writeBigInt64LE(b.minTs, pos);
    pos = out.writeBigInt64LE(b.maxTs, pos);
    pos = out.writeUInt32LE(b.entries, pos);
    pos = out.writeUInt32LE(b.rawBytes, pos);
    pos = out.writeUInt32LE(blockOffset, pos);
    pos = out.writeUInt32LE(b.data.length, pos);
    pos = out.writeUInt32LE(b.uncompressedLength, pos);
    pos = out.writeUInt32LE(b.crc, pos);
    blockOffset += b.data.length;
  }
  pos = out.writeUInt32LE(symbolsOffset, pos);
  pos = out.writeUInt32LE(symbolsData.length, pos);
  pos = out.writeUInt32LE(symbolsRaw.length, pos);
  pos = out.writeUInt32LE(compressedSymbols.crc, pos);

  // The meta checksum also covers the header, so a flipped encoding or version byte is caught.
  const metaCrc = crc32(out.subarray(metaOffset, pos), crc32(out.subarray(0, HEADER_SIZE)));
  pos = out.writeUInt32LE(metaOffset, pos);
  pos = out.writeUInt32LE(metaLength, pos);
  pos = out.writeUInt32LE(metaCrc, pos);
  out.writeUInt32LE(CHUNK_MAGIC, pos);
  return out;
}

/**
 * Parses and fully validates chunk bytes: magic, version, encoding, layout, and every checksum.
 * Block data stays as views into `buf`; blocks are decompressed only when iterated.
 * `checksums: false` skips the checksums (not the layout checks), for bytes this process made
 * a moment ago and never stored or sent (a snapshot for a query worker thread);
 * `blockChecksums: false` skips those of the blocks alone, for a reader that checks each block
 * when it first reads it (see `MemChunk.decode`).
 */
export function decodeChunk(buf: Buffer, options: DecodeChecks = {}): ChunkContents {
  const { checksums = true, blockChecksums = checksums } = options;
  if (!Buffer.isBuffer(buf)) throw new ChunkFormatError('chunk must be a Buffer');
  if (buf.length < HEADER_SIZE + FOOTER_SIZE) {
    throw new ChunkFormatError(`chunk too short: ${buf.length} bytes`);
  }
  if (buf.readUInt32LE(0) !== CHUNK_MAGIC) throw new ChunkFormatError('bad chunk magic');
  if (buf.readUInt32LE(buf.length - 4) !== CHUNK_MAGIC) {
    throw new ChunkFormatError('bad chunk footer magic (truncated chunk?)');
  }
  const version = buf.readUInt8(4);
  if (version !== CHUNK_VERSION) throw new ChunkFormatError(`unsupported chunk version ${version}`);
  const encoding = encodingFromId(buf.readUInt8(5));
  if (buf.readUInt16LE(6) !== 0) throw new ChunkFormatError('reserved header bytes are not zero');

  const footer = buf.length - FOOTER_SIZE;
  const metaOffset = buf.readUInt32LE(footer);
  const metaLength = buf.readUInt32LE(footer + 4);
  if (metaOffset + metaLength !== footer || metaOffset < HEADER_SIZE || metaLength < 4) {
    throw new ChunkFormatError('chunk meta section out of bounds');
  }
  const meta = buf.subarray(metaOffset, footer);
  if (
    checksums &&
    crc32(meta, crc32(buf.subarray(0, HEADER_SIZE))) !== buf.readUInt32LE(footer + 8)
  ) {
    throw new ChunkFormatError('chunk meta checksum mismatch');
  }
  const blockCount = meta.readUInt32LE(0);
  if (metaLength !== 4 + BLOCK_META_SIZE * blockCount + SYMBOLS_META_SIZE) {
    throw new ChunkFormatError('chunk meta length does not match its block count');
  }

  const blocks: StoredBlock[] = [];
  let expectedOffset = HEADER_SIZE;
  let pos = 4;
  for (let i = 0; i < blockCount; i++, pos += BLOCK_META_SIZE) {
    const minTs = meta.readBigInt64LE(pos);
    const maxTs = meta.readBigInt64LE(pos + 8);
    const entries = meta.readUInt32LE(pos + 16);
    const rawBytes = meta.readUInt32LE(pos + 20);
    const offset = meta.readUInt32LE(pos + 24);
    const length = meta.readUInt32LE(pos + 28);
    const uncompressedLength = meta.readUInt32LE(pos + 32);
    const crc = meta.readUInt32LE(pos + 36);
    if (offset !== expectedOffset || offset + length > metaOffset) {
      throw new ChunkFormatError(`block ${i} out of bounds`);
    }
    if (entries === 0 || minTs > maxTs) throw new ChunkFormatError(`block ${i} meta is invalid`);
    const data = buf.subarray(offset, offset + length);
    if (blockChecksums && crc32(data) !== crc)
      throw new ChunkFormatError(`block ${i} checksum mismatch`);
    blocks.push({ minTs, maxTs, entries, rawBytes, uncompressedLength, data, crc });
    expectedOffset = offset + length;
  }

  const symbolsOffset = meta.readUInt32LE(pos);
  const symbolsLength = meta.readUInt32LE(pos + 4);
  const symbolsRawLength = meta.readUInt32LE(pos + 8);
  if (symbolsOffset !== expectedOffset || symbolsOffset + symbolsLength !== metaOffset) {
    throw new ChunkFormatError('symbol table out of bounds');
  }
  const symbolsData = buf.subarray(symbolsOffset, metaOffset);
  if (checksums && crc32(symbolsData) !== meta.readUInt32LE(pos + 12)) {
    throw new ChunkFormatError('symbol table checksum mismatch');
  }
  const symbols = SymbolTable.decode(decompress(encoding, symbolsData, symbolsRawLength));
  return { encoding, blocks, symbols };
}
