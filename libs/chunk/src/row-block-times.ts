/**
 * A row-format block's timestamps, line lengths and metadata names (`RunTimes`) read from the
 * start of its payload, before its lines: from a snappy block only that start is decompressed.
 * Checked against the block's meta as `decodeBlockPayload` checks, so corrupt bytes raise
 * ChunkFormatError.
 */
import { endianness } from 'node:os';
import type { BlockMeta } from './block';
import { ChunkFormatError } from './errors';
import type { ChunkEncoding } from './options';
import { offsetsOf, type RunTimes } from './run-summary';
import { SnappyPrefix } from './snappy-prefix';
import { UvarintReader } from './varint';

const LITTLE_ENDIAN = endianness() === 'LE';
/** The most bytes a uvarint of the payload takes. */
const MAX_UVARINT = 5;

/** The start of a payload, decompressed as far as `ensure` asks. */
interface PayloadPrefix {
  /** The bytes decompressed so far (read it again after `ensure`). */
  readonly out: Buffer;
  /** The payload's whole length. */
  readonly total: number;
  ensure(end: number): number;
}

/**
 * How to read the start of a block stored with `encoding` (`payload`: its uncompressed bytes
 * while it is still being compressed); null when only decompressing all of it can.
 */
export function payloadPrefix(
  encoding: ChunkEncoding,
  data: Buffer,
  payload: Buffer | null,
): PayloadPrefix | null {
  const whole = payload ?? (encoding === 'none' ? data : null);
  if (whole !== null) return { out: whole, total: whole.length, ensure: () => whole.length };
  return encoding === 'snappy' ? new SnappyPrefix(data) : null;
}

export function rowBlockTimes(
  prefix: PayloadPrefix,
  meta: BlockMeta,
  symbols: readonly string[],
  symbolByteLengths: readonly number[],
): RunTimes {
  const n = meta.entries;
  if (prefix.total !== meta.uncompressedLength) {
    throw new ChunkFormatError('block length does not match its meta');
  }
  let have = prefix.ensure(8 * n);
  if (8 * n > have) throw new ChunkFormatError('block too short for its timestamps');
  const ts = new BigInt64Array(n);
  let out = prefix.out;
  if (LITTLE_ENDIAN) new Uint8Array(ts.buffer).set(out.subarray(0, 8 * n));
  else for (let i = 0; i < n; i++) ts[i] = out.readBigInt64LE(8 * i);
  if (n > 0 && (ts[0] !== meta.minTs || ts[n - 1] !== meta.maxTs)) {
    throw new ChunkFormatError('block time range does not match its meta');
  }
  // Line lengths, then metadata pair counts: n uvarints each, mostly of one or two bytes.
  let pos = 8 * n;
  const lineOffsets = new Uint32Array(n + 1);
  let ids = 0;
  for (let i = 0; i < 2 * n; i++) {
    if (pos + MAX_UVARINT > have) {
      have = prefix.ensure(pos + MAX_UVARINT + 2 * (2 * n - i));
      out = prefix.out;
    }
    let v = 0;
    let mul = 1;
    for (;;) {
      if (pos >= have || mul > 2 ** 28) throw new ChunkFormatError('bad varint in block');
      const b = out[pos++];
      v += (b & 0x7f) * mul;
      if (b < 0x80) break;
      mul *= 128;
    }
    if (i < n) lineOffsets[i + 1] = lineOffsets[i] + v;
    else ids += 2 * v;
  }
  have = prefix.ensure(pos + MAX_UVARINT * ids);
  const ir = new UvarintReader(prefix.out, pos, have);
  let rawBytes = lineOffsets[n];
  const names = new Set<number>();
  for (let i = 0; i < ids; i++) {
    const id = ir.read();
    if (id >= symbols.length) throw new ChunkFormatError(`metadata symbol id ${id} out of range`);
    if (i % 2 === 0) names.add(id);
    rawBytes += symbolByteLengths[id];
  }
  if (ir.pos + lineOffsets[n] !== prefix.total) {
    throw new ChunkFormatError('block line bytes do not match the block length');
  }
  if (rawBytes !== meta.rawBytes) throw new ChunkFormatError('block size does not match its meta');
  const metadataNames = [...names].map((id) => symbols[id]);
  return { count: n, offsets: (origin) => offsetsOf(ts, n, origin), lineOffsets, metadataNames };
}
