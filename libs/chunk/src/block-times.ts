/**
 * A cut row-format block's timestamps and line lengths, kept in memory beside its compressed
 * bytes (`MemChunk.cutBlock`): exactly the bytes of a columnar block's Timestamps column (the
 * first as int64 LE, then uvarint deltas) and LineLengths column (a uvarint each), uncompressed,
 * with the block's line bytes and the metadata names its entries carry. A count over time reads
 * these instead of decompressing the block or reading it back from the spill. Never stored and
 * never spilled: blocks restored from a WAL checkpoint or decoded from chunk bytes have none.
 */
import { endianness } from 'node:os';
import type { EncodedPayload } from './block';
import { columnTimes } from './columnar-times';
import { ChunkFormatError } from './errors';
import { offsetsOf, type RunMeta } from './run-summary';

const LITTLE_ENDIAN = endianness() === 'LE';

export interface BlockTimes {
  /**
   * The Timestamps column, then the LineLengths column, in shared memory (a query worker's
   * snapshot reads them without a copy).
   */
  readonly bytes: Uint8Array;
  /** Where the LineLengths column starts in `bytes`. */
  readonly lengthsAt: number;
  /** The sum of the block's line lengths. */
  readonly lineBytes: number;
  /** Symbol ids of the structured-metadata names the block's entries carry, each once. */
  readonly names: readonly number[];
}

/** Bytes `v` (0 <= v < 2^53) takes as a uvarint. */
function uvarintSize53(v: number): number {
  let size = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    size++;
  }
  return size;
}

/** Writes `v` (0 <= v < 2^53) as a uvarint at `pos`; returns the position after it. */
function writeUvarint53(out: Uint8Array, pos: number, v: number): number {
  while (v >= 0x80) {
    out[pos++] = (v % 128) | 0x80;
    v = Math.floor(v / 128);
  }
  out[pos++] = v;
  return pos;
}

/** Same as `writeUvarint53` for any 64-bit delta. */
function writeUvarint64(out: Uint8Array, pos: number, v: bigint): number {
  while (v >= 0x80n) {
    out[pos++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  out[pos++] = Number(v);
  return pos;
}

/**
 * The side copy of a block just encoded (`encodeBlockPayload`): its line lengths are the
 * payload's own uvarints, copied; its timestamps are delta-encoded from `sortedTs`.
 */
export function blockTimesOf(encoded: EncodedPayload): BlockTimes {
  const { sortedTs, payload, entries: n, lengthsEnd } = encoded;
  const span = n > 0 ? sortedTs[n - 1] - sortedTs[0] : 0n;
  const lengths = payload.subarray(8 * n, lengthsEnd);
  // Deltas as doubles (exact: the span is under 2^53, as every real block's is).
  const near = span < 2n ** 53n;
  const u = near && n > 0 ? offsetsOf(sortedTs, n, sortedTs[0]) : null;
  let tsSize = n > 0 ? 8 : 0;
  if (u !== null) for (let i = 1; i < n; i++) tsSize += uvarintSize53(u[i] - u[i - 1]);
  else for (let i = 1; i < n; i++) tsSize += uvarintSize64(sortedTs[i] - sortedTs[i - 1]);
  const bytes = new Uint8Array(new SharedArrayBuffer(tsSize + lengths.length));
  if (n > 0) {
    const first = Buffer.from(bytes.buffer, 0, 8);
    if (LITTLE_ENDIAN) first.set(new Uint8Array(sortedTs.buffer, sortedTs.byteOffset, 8));
    else first.writeBigInt64LE(sortedTs[0], 0);
  }
  let w = 8;
  if (u !== null) for (let i = 1; i < n; i++) w = writeUvarint53(bytes, w, u[i] - u[i - 1]);
  else for (let i = 1; i < n; i++) w = writeUvarint64(bytes, w, sortedTs[i] - sortedTs[i - 1]);
  bytes.set(lengths, tsSize);
  return {
    bytes,
    lengthsAt: tsSize,
    lineBytes: encoded.lineBytes,
    names: encoded.metadataNames,
  };
}

function uvarintSize64(v: bigint): number {
  let size = 1;
  while (v >= 0x80n) {
    v >>= 7n;
    size++;
  }
  return size;
}

/** What a count over time reads of a block that has a side copy: no byte of the block itself. */
export function blockTimesMeta(
  times: BlockTimes,
  meta: { readonly minTs: bigint; readonly maxTs: bigint; readonly entries: number },
  symbols: readonly string[],
): RunMeta {
  const names = times.names.map((id) => {
    if (id >= symbols.length) throw new ChunkFormatError(`metadata symbol id ${id} out of range`);
    return symbols[id];
  });
  const { bytes, lengthsAt } = times;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tsBytes = view.subarray(0, lengthsAt);
  const lenBytes = view.subarray(lengthsAt);
  return {
    entries: meta.entries,
    lineBytes: times.lineBytes,
    metadataNames: names,
    times: (lengths) =>
      columnTimes(tsBytes, lengths ? lenBytes : null, meta, times.lineBytes, names),
  };
}
