/**
 * A head block's entries as one buffer for a query worker thread, column by column as the head
 * holds them: timestamps, line offsets, metadata offsets and ids, line bytes, then the symbol
 * table. Making it is a few copies; reading it makes typed-array views, with no varint to
 * decode. A head whose rows arrived out of timestamp order goes with its rows' order (position
 * -> row, stably sorted by timestamp) when the caller allows it (a query snapshot; the WAL
 * checkpoint keeps only heads in arrival order this way).
 *
 * Layout (little-endian): a 32-byte header (magic "LSHR", entry count, raw bytes, line bytes,
 * metadata id count, symbol table bytes, flags (1: an order column follows the metadata ids;
 * 0 otherwise), a zero word), `count` int64 timestamps, `count + 1` uint32 line offsets,
 * `count + 1` uint32 metadata offsets, the uint32 metadata ids, with flag 1 `count` uint32 row
 * numbers in time order, the line bytes, the symbol table (`SymbolTable.encode`). Every column
 * starts aligned to its element size when the buffer does.
 */
import type { EntryRun } from './entry-run';
import { ChunkFormatError } from './errors';
import { SymbolTable } from './symbols';

/** "LSHR": logsvc head run. */
const HEAD_RUN_MAGIC = 0x5248534c;
const HEADER = 32;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Whether `buf` holds a head run (else it is chunk bytes). */
export function isHeadRun(buf: Buffer): boolean {
  return buf.length >= HEADER && buf.readUInt32LE(0) === HEAD_RUN_MAGIC;
}

/** Header flag: the row order column is there. */
const WITH_ORDER = 1;

/**
 * The run's columns and the symbol table (`symbolBytes`, `SymbolTable.encode()`) in one buffer;
 * null for a run not in time order unless `withOrder`.
 */
export function encodeHeadRun(
  run: EntryRun,
  rawBytes: number,
  symbolBytes: Buffer,
  withOrder = false,
): Buffer | null {
  const order = run.order;
  if ((order !== null && !withOrder) || !LITTLE_ENDIAN) return null;
  const n = run.count;
  const lineBytes = run.lineOffsets[n];
  const ids = run.smOffsets[n];
  const orderBytes = order === null ? 0 : 4 * n;
  const total =
    HEADER + 8 * n + 8 * (n + 1) + 4 * ids + orderBytes + lineBytes + symbolBytes.length;
  const out = Buffer.allocUnsafe(total);
  out.writeUInt32LE(HEAD_RUN_MAGIC, 0);
  out.writeUInt32LE(n, 4);
  out.writeUInt32LE(rawBytes, 8);
  out.writeUInt32LE(lineBytes, 12);
  out.writeUInt32LE(ids, 16);
  out.writeUInt32LE(symbolBytes.length, 20);
  out.writeUInt32LE(order === null ? 0 : WITH_ORDER, 24);
  out.writeUInt32LE(0, 28);
  let pos = HEADER;
  pos += bytesOf(run.ts, n).copy(out, pos);
  pos += bytesOf(run.lineOffsets, n + 1).copy(out, pos);
  pos += bytesOf(run.smOffsets, n + 1).copy(out, pos);
  pos += bytesOf(run.smIds, ids).copy(out, pos);
  if (order !== null) pos += bytesOf(order, n).copy(out, pos);
  pos += run.lines.copy(out, pos, 0, lineBytes);
  symbolBytes.copy(out, pos);
  return out;
}

function bytesOf(a: BigInt64Array | Uint32Array, length: number): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, length * a.BYTES_PER_ELEMENT);
}

/** The run, its raw bytes and its symbol table, as views into `buf` where aligned. */
export function decodeHeadRun(buf: Buffer): {
  run: EntryRun;
  rawBytes: number;
  symbols: SymbolTable;
} {
  if (!isHeadRun(buf) || !LITTLE_ENDIAN) throw new ChunkFormatError('not a head run');
  const n = buf.readUInt32LE(4);
  const rawBytes = buf.readUInt32LE(8);
  const lineBytes = buf.readUInt32LE(12);
  const ids = buf.readUInt32LE(16);
  const symbolBytes = buf.readUInt32LE(20);
  const flags = buf.readUInt32LE(24);
  if ((flags & ~WITH_ORDER) !== 0) throw new ChunkFormatError('unknown head run flags');
  const orderBytes = flags === WITH_ORDER ? 4 * n : 0;
  if (
    HEADER + 8 * n + 8 * (n + 1) + 4 * ids + orderBytes + lineBytes + symbolBytes !==
    buf.length
  ) {
    throw new ChunkFormatError('head run length does not match its header');
  }
  let pos = HEADER;
  const ts = int64s(buf, pos, n);
  pos += 8 * n;
  const lineOffsets = uint32s(buf, pos, n + 1);
  pos += 4 * (n + 1);
  const smOffsets = uint32s(buf, pos, n + 1);
  pos += 4 * (n + 1);
  const smIds = uint32s(buf, pos, ids);
  pos += 4 * ids;
  const order = orderBytes === 0 ? null : checkedOrder(uint32s(buf, pos, n), ts);
  pos += orderBytes;
  const lines = buf.subarray(pos, pos + lineBytes);
  pos += lineBytes;
  const symbols = SymbolTable.decode(buf.subarray(pos, pos + symbolBytes));
  if (lineOffsets[n] !== lineBytes || smOffsets[n] !== ids) {
    throw new ChunkFormatError('head run offsets do not match its header');
  }
  const run: EntryRun = {
    count: n,
    ts,
    lineOffsets,
    lines,
    smOffsets,
    smIds,
    symbols: symbols.strings,
    order,
  };
  return { run, rawBytes, symbols };
}

/** `order` when it names every row once and puts their timestamps in order. */
function checkedOrder(order: Uint32Array, ts: BigInt64Array): Uint32Array {
  const seen = new Uint8Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const row = order[i];
    if (row >= order.length || seen[row] === 1 || (i > 0 && ts[row] < ts[order[i - 1]])) {
      throw new ChunkFormatError('bad head run order');
    }
    seen[row] = 1;
  }
  return order;
}

/** `count` int64s at `buf[pos]`: a view when aligned, else a copy. */
function int64s(buf: Buffer, pos: number, count: number): BigInt64Array {
  const offset = buf.byteOffset + pos;
  if (offset % 8 === 0) return new BigInt64Array(buf.buffer, offset, count);
  return new BigInt64Array(Uint8Array.prototype.slice.call(buf, pos, pos + 8 * count).buffer);
}

/** `count` uint32s at `buf[pos]`: a view when aligned, else a copy. */
function uint32s(buf: Buffer, pos: number, count: number): Uint32Array {
  const offset = buf.byteOffset + pos;
  if (offset % 4 === 0) return new Uint32Array(buf.buffer, offset, count);
  return new Uint32Array(Uint8Array.prototype.slice.call(buf, pos, pos + 4 * count).buffer);
}
