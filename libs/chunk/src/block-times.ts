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
import type { RunMeta } from './run-summary';

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

/** Where the timestamps column is written before it is copied to its exact size; grown as needed. */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/**
 * Writes `v` (0 <= v < 2^53) as a uvarint at `pos`; returns the position after it. Deltas under
 * 2^32 (every one of a block whose entries are under 4.3 s apart) take integer steps only.
 */
function writeUvarint53(out: Uint8Array, pos: number, v: number): number {
  if (v < 0x100000000) {
    let x = v >>> 0;
    while (x >= 0x80) {
      out[pos++] = (x & 0x7f) | 0x80;
      x >>>= 7;
    }
    out[pos++] = x;
    return pos;
  }
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

const TWO_32 = 0x100000000;

/**
 * The side copy of a block just encoded (`encodeBlockPayload`): its line lengths are the
 * payload's own uvarints, copied; its timestamps are delta-encoded from `sortedTs`.
 */
export function blockTimesOf(encoded: EncodedPayload): BlockTimes {
  const { sortedTs, payload, entries: n, lengthsEnd } = encoded;
  const lengths = payload.subarray(8 * n, lengthsEnd);
  // At most 10 bytes a delta.
  if (scratch.length < 8 + 10 * n) scratch = Buffer.allocUnsafeSlow(8 + 10 * n);
  const out = scratch;
  let w = 0;
  if (n > 0) {
    out.writeBigInt64LE(sortedTs[0], 0);
    w = 8;
  }
  const span = n > 0 ? sortedTs[n - 1] - sortedTs[0] : 0n;
  if (LITTLE_ENDIAN && span < 2n ** 53n) {
    // Deltas from the 32-bit halves, as doubles (exact: the span is under 2^53, as every real
    // block's is): no BigInt per entry.
    const halves = new Uint32Array(sortedTs.buffer, sortedTs.byteOffset, 2 * n);
    for (let i = 1; i < n; i++) {
      const lo = halves[2 * i] - halves[2 * i - 2];
      const hi = (halves[2 * i + 1] - halves[2 * i - 1]) | 0;
      w = writeUvarint53(out, w, hi * TWO_32 + lo);
    }
  } else {
    for (let i = 1; i < n; i++) w = writeUvarint64(out, w, sortedTs[i] - sortedTs[i - 1]);
  }
  const bytes = new Uint8Array(new SharedArrayBuffer(w + lengths.length));
  bytes.set(out.subarray(0, w), 0);
  bytes.set(lengths, w);
  return { bytes, lengthsAt: w, lineBytes: encoded.lineBytes, names: encoded.metadataNames };
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
