/**
 * A cut row-format block's timestamps and line lengths, kept in memory beside its compressed
 * bytes (`MemChunk.cutBlock`): exactly the bytes of a columnar block's Timestamps column (the
 * first as int64 LE, then uvarint deltas) and LineLengths column (a uvarint each), uncompressed,
 * with the block's line bytes and the metadata names its entries carry. A count over time reads
 * these instead of decompressing the block or reading it back from the spill. Never stored and
 * never spilled: blocks restored from a WAL checkpoint or decoded from chunk bytes have none.
 * A chunk keeps its blocks' side copies back to back in one SharedArrayBuffer (`TimesArena`), so
 * a snapshot sends one view and one index for all of them (`PackedTimes`), not one per block.
 */
import { endianness } from 'node:os';
import type { EncodedPayload } from './block';
import { columnTimes } from './columnar-times';
import { ChunkFormatError } from './errors';
import type { RunMeta } from './run-summary';
import { writeUvarint } from './varint';

const LITTLE_ENDIAN = endianness() === 'LE';

export interface BlockTimes {
  /**
   * Its chunk's arena (shared memory, which a query worker's snapshot reads without a copy):
   * the block's Timestamps column is `bytes[start, lengthsAt)`, its LineLengths column
   * `bytes[lengthsAt, end)`.
   */
  readonly bytes: Uint8Array;
  readonly start: number;
  readonly lengthsAt: number;
  readonly end: number;
  /** The sum of the block's line lengths. */
  readonly lineBytes: number;
  /** Symbol ids of the structured-metadata names the block's entries carry, each once. */
  readonly names: readonly number[];
}

/**
 * Writes `v` (0 <= v < 2^53) as a uvarint at `pos`; returns the position after it. Deltas under
 * 2^32 (every one of a block whose entries are under 4.3 s apart) take integer steps only.
 */
function writeUvarint53(out: Uint8Array, pos: number, v: number): number {
  if (v >= 0x100000000) return writeUvarint(out, pos, v);
  let x = v >>> 0;
  while (x >= 0x80) {
    out[pos++] = (x & 0x7f) | 0x80;
    x >>>= 7;
  }
  out[pos++] = x;
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
 * A block's side copy is written here before it goes to its arena: the timestamps column takes
 * at most 8 + 10 bytes an entry. Grown as needed.
 */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/** The timestamps column of `sortedTs` into `scratch`; returns its length. */
function writeTimestamps(sortedTs: BigInt64Array, n: number): number {
  if (scratch.length < 8 + 10 * n) scratch = Buffer.allocUnsafeSlow(8 + 10 * n);
  const out = scratch;
  if (n === 0) return 0;
  out.writeBigInt64LE(sortedTs[0], 0);
  let w = 8;
  const span = sortedTs[n - 1] - sortedTs[0];
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
  return w;
}

/** A chunk's side copies as a snapshot sends them: one view and one index for all blocks. */
export interface PackedTimes {
  /** The arena's bytes in use (shared memory). */
  readonly bytes: Uint8Array;
  /**
   * Four numbers a block: where its side copy starts in `bytes`, where its lengths start, where
   * it ends, its line bytes; a start of -1 when the block has none.
   */
  readonly index: Float64Array;
  /** The blocks' metadata name ids back to back: block i's from `namesAt[i]` to `namesAt[i + 1]`. */
  readonly names: Uint32Array;
  readonly namesAt: Uint32Array;
}

type HeldTimes = { -readonly [K in keyof BlockTimes]: BlockTimes[K] };

const NO_BYTES = new Uint8Array(new SharedArrayBuffer(0));
const NO_NAMES: readonly number[] = [];

/**
 * One chunk's side copies back to back in one SharedArrayBuffer, grown by at least a quarter as
 * blocks are cut (each block's `bytes` then moves to the new one) and trimmed to what it holds
 * when the chunk closes. Bytes once written never change: a snapshot's view of an older buffer stays valid.
 */
export class TimesArena {
  private bytes = NO_BYTES;
  private used = 0;
  private readonly held: HeldTimes[] = [];

  /** Bytes held, room for later blocks included. */
  get byteLength(): number {
    return this.bytes.byteLength;
  }

  /**
   * The side copy of a block just encoded (`encodeBlockPayload`): its line lengths are the
   * payload's own uvarints, copied; its timestamps are delta-encoded from `sortedTs`.
   */
  add(encoded: EncodedPayload): BlockTimes {
    const { sortedTs, payload, entries: n, lengthsEnd } = encoded;
    const lengths = payload.subarray(8 * n, lengthsEnd);
    const tsLength = writeTimestamps(sortedTs, n);
    const size = tsLength + lengths.length;
    const at = this.used;
    // A quarter more each time: little room left unused, few moves (each copies what is held).
    if (at + size > this.bytes.byteLength) this.moveTo(Math.max(at + size, Math.floor(1.25 * at)));
    this.bytes.set(scratch.subarray(0, tsLength), at);
    this.bytes.set(lengths, at + tsLength);
    this.used = at + size;
    const times: HeldTimes = {
      bytes: this.bytes,
      start: at,
      lengthsAt: at + tsLength,
      end: at + size,
      lineBytes: encoded.lineBytes,
      names: encoded.metadataNames,
    };
    this.held.push(times);
    return times;
  }

  /** Gives up the room for later blocks (the chunk takes no more). */
  trim(): void {
    if (this.used < this.bytes.byteLength) this.moveTo(this.used);
  }

  /** The side copies of `blocks` (those of this arena) for a snapshot; null when none has one. */
  pack(blocks: readonly { readonly times?: BlockTimes }[]): PackedTimes | null {
    if (this.held.length === 0) return null;
    const index = new Float64Array(4 * blocks.length);
    const namesAt = new Uint32Array(blocks.length + 1);
    const names: number[] = [];
    for (let i = 0; i < blocks.length; i++) {
      const times = blocks[i].times;
      const mine = times !== undefined && times.bytes === this.bytes;
      index[4 * i] = mine ? times.start : -1;
      if (mine) {
        index[4 * i + 1] = times.lengthsAt;
        index[4 * i + 2] = times.end;
        index[4 * i + 3] = times.lineBytes;
        for (const id of times.names) names.push(id);
      }
      namesAt[i + 1] = names.length;
    }
    return {
      bytes: this.bytes.subarray(0, this.used),
      index,
      names: Uint32Array.from(names),
      namesAt,
    };
  }

  private moveTo(capacity: number): void {
    const next = new Uint8Array(new SharedArrayBuffer(capacity));
    next.set(this.bytes.subarray(0, this.used));
    for (const t of this.held) t.bytes = next;
    this.bytes = next;
  }
}

/** Block `i`'s side copy in a snapshot's packed ones; undefined when it had none. */
export function unpackTimes(packed: PackedTimes, i: number): BlockTimes | undefined {
  const { bytes, index, names, namesAt } = packed;
  const start = index[4 * i];
  if (start < 0) return undefined;
  const lengthsAt = index[4 * i + 1];
  const end = index[4 * i + 2];
  if (!(start <= lengthsAt && lengthsAt <= end && end <= bytes.byteLength)) {
    throw new ChunkFormatError('side copy of block times out of range');
  }
  const from = namesAt[i];
  const to = namesAt[i + 1];
  return {
    bytes,
    start,
    lengthsAt,
    end,
    lineBytes: index[4 * i + 3],
    names: from === to ? NO_NAMES : Array.from(names.subarray(from, to)),
  };
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
  const { bytes, start, lengthsAt, end } = times;
  const tsBytes = Buffer.from(bytes.buffer, bytes.byteOffset + start, lengthsAt - start);
  const lenBytes = Buffer.from(bytes.buffer, bytes.byteOffset + lengthsAt, end - lengthsAt);
  return {
    entries: meta.entries,
    lineBytes: times.lineBytes,
    metadataNames: names,
    times: (lengths) =>
      columnTimes(tsBytes, lengths ? lenBytes : null, meta, times.lineBytes, names),
  };
}
