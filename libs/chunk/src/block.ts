import { endianness } from 'node:os';
import { type EntryRun, rowAt } from './entry-run';
import { ChunkFormatError } from './errors';
import type { SlabPool } from './slab-pool';
import { UvarintReader, uvarintSize, writeUvarint } from './varint';

const LITTLE_ENDIAN = endianness() === 'LE';

/** What a chunk records about each block, so readers can skip it without decompressing. */
export interface BlockMeta {
  readonly minTs: bigint;
  readonly maxTs: bigint;
  readonly entries: number;
  /** Line bytes plus structured metadata bytes of the block's entries. */
  readonly rawBytes: number;
  readonly uncompressedLength: number;
}

export interface EncodedPayload extends BlockMeta {
  readonly payload: Buffer;
  /** The block's timestamps in stored order (kept by the writer for duplicate checks). */
  readonly sortedTs: BigInt64Array;
  /** The sum of the line lengths. */
  readonly lineBytes: number;
  /** Where the payload's line lengths end (they start after the timestamps, at 8 x entries). */
  readonly lengthsEnd: number;
  /** Symbol ids of the structured-metadata names the entries carry, each once, first seen first. */
  readonly metadataNames: readonly number[];
}

/** Copies the line bytes at offsets [from, to) of a run to `target` at `at`. */
export type LineCopier = (target: Buffer, at: number, from: number, to: number) => void;

/**
 * Serializes a run's entries in its order (timestamp, then insertion). Payload layout (before compression), n entries:
 *   n x int64 LE timestamp | n x uvarint line length | n x uvarint metadata pair count |
 *   per entry its (name id, value id) uvarint pairs | all line bytes back to back
 * The payload is cut from `pool` when one is given. `copyLines`, when given, copies the lines
 * of a run already in order (whose `lines` are then not read).
 */
export function encodeBlockPayload(
  run: EntryRun,
  symbolByteLengths: readonly number[],
  pool?: SlabPool,
  copyLines?: LineCopier,
): EncodedPayload {
  const n = run.count;
  const sortedTs = new BigInt64Array(n);
  let size = 8 * n;
  let lengthsEnd = 8 * n;
  let lineBytes = 0;
  let rawBytes = 0;
  const names: number[] = [];
  if (run.order === null) sortedTs.set(run.ts.subarray(0, n));
  for (let pos = 0; pos < n; pos++) {
    const row = rowAt(run, pos);
    if (run.order !== null) sortedTs[pos] = run.ts[row];
    const len = run.lineOffsets[row + 1] - run.lineOffsets[row];
    const smStart = run.smOffsets[row];
    const smEnd = run.smOffsets[row + 1];
    const lenSize = uvarintSize(len);
    size += lenSize + uvarintSize((smEnd - smStart) / 2) + len;
    lengthsEnd += lenSize;
    lineBytes += len;
    for (let i = smStart; i < smEnd; i++) {
      size += uvarintSize(run.smIds[i]);
      rawBytes += symbolByteLengths[run.smIds[i]];
    }
    // Ids come in (name, value) pairs; a block's entries carry few names.
    for (let i = smStart; i < smEnd; i += 2) {
      if (!names.includes(run.smIds[i])) names.push(run.smIds[i]);
    }
  }
  rawBytes += lineBytes;
  const payload = pool ? pool.take(size) : Buffer.allocUnsafe(size);
  if (LITTLE_ENDIAN) {
    Buffer.from(sortedTs.buffer, sortedTs.byteOffset, 8 * n).copy(payload, 0);
  } else {
    for (let pos = 0; pos < n; pos++) payload.writeBigInt64LE(sortedTs[pos], 8 * pos);
  }
  let w = 8 * n;
  for (let pos = 0; pos < n; pos++) {
    const row = rowAt(run, pos);
    w = writeUvarint(payload, w, run.lineOffsets[row + 1] - run.lineOffsets[row]);
  }
  for (let pos = 0; pos < n; pos++) {
    const row = rowAt(run, pos);
    w = writeUvarint(payload, w, (run.smOffsets[row + 1] - run.smOffsets[row]) / 2);
  }
  for (let pos = 0; pos < n; pos++) {
    const row = rowAt(run, pos);
    for (let i = run.smOffsets[row]; i < run.smOffsets[row + 1]; i++) {
      w = writeUvarint(payload, w, run.smIds[i]);
    }
  }
  if (run.order === null) {
    // Rows already sorted: their lines are back to back in order, one copy.
    if (copyLines !== undefined) copyLines(payload, w, run.lineOffsets[0], run.lineOffsets[n]);
    else payload.set(run.lines.subarray(run.lineOffsets[0], run.lineOffsets[n]), w);
  } else {
    // Rows that follow one another in `lines` (an agent's batch of one stream arrives in
    // order) go in one copy: no view made per line.
    const { order, lineOffsets, lines } = run;
    for (let pos = 0; pos < n;) {
      const first = order[pos];
      let last = first;
      while (++pos < n && order[pos] === last + 1) last++;
      const start = lineOffsets[first];
      const end = lineOffsets[last + 1];
      payload.set(lines.subarray(start, end), w);
      w += end - start;
    }
  }
  return {
    payload,
    sortedTs,
    minTs: n > 0 ? sortedTs[0] : 0n,
    maxTs: n > 0 ? sortedTs[n - 1] : 0n,
    entries: n,
    rawBytes,
    uncompressedLength: size,
    lineBytes,
    lengthsEnd,
    metadataNames: names,
  };
}

/** A decoded row-format block; its metadata pairs are read from the payload when first asked. */
class PayloadRun implements EntryRun {
  readonly order = null;
  private metadata: { readonly offsets: Uint32Array; readonly ids: Uint32Array } | null = null;

  constructor(
    readonly count: number,
    readonly ts: BigInt64Array,
    readonly lineOffsets: Uint32Array,
    readonly lines: Buffer,
    readonly symbols: readonly string[],
    private readonly readMetadata: () => { offsets: Uint32Array; ids: Uint32Array },
  ) {}

  get smOffsets(): Uint32Array {
    return (this.metadata ??= this.readMetadata()).offsets;
  }

  get smIds(): Uint32Array {
    return (this.metadata ??= this.readMetadata()).ids;
  }
}

/**
 * Parses a decompressed payload into a run whose lines are views into `payload`. Every length
 * and id is checked against the payload and the meta, so corrupt bytes raise ChunkFormatError
 * (those of the metadata pairs when some entry's metadata is first read: the lines end the
 * payload, so they are found from the line lengths alone, and a count with line filters never
 * reads the pairs).
 */
export function decodeBlockPayload(
  payload: Buffer,
  meta: BlockMeta,
  symbols: readonly string[],
  symbolByteLengths: readonly number[],
): EntryRun {
  const n = meta.entries;
  if (8 * n > payload.length) throw new ChunkFormatError('block too short for its timestamps');
  const ts = payloadTimestamps(payload, n);
  for (let i = 1; i < n; i++) {
    if (ts[i] < ts[i - 1]) throw new ChunkFormatError('block timestamps out of order');
  }
  if (n > 0 && (ts[0] !== meta.minTs || ts[n - 1] !== meta.maxTs)) {
    throw new ChunkFormatError('block time range does not match its meta');
  }
  const r = new UvarintReader(payload, 8 * n, payload.length);
  const lineOffsets = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const end = lineOffsets[i] + r.read();
    if (end > payload.length) throw new ChunkFormatError('block line lengths exceed block');
    lineOffsets[i + 1] = end;
  }
  const pairsStart = r.pos;
  const linesStart = payload.length - lineOffsets[n];
  // Each entry has a pair count of at least one byte before the lines.
  if (linesStart < pairsStart + n) {
    throw new ChunkFormatError('block line bytes do not match the block length');
  }
  return new PayloadRun(n, ts, lineOffsets, payload.subarray(linesStart), symbols, () =>
    readPairs(payload, pairsStart, linesStart, lineOffsets[n], meta, symbols, symbolByteLengths),
  );
}

/**
 * The payload's n int64 LE timestamps: a view of its bytes when they sit 8-byte aligned (a
 * decompressed payload is a buffer of its own; the run's lines keep it alive anyway), else a
 * copy.
 */
function payloadTimestamps(payload: Buffer, n: number): BigInt64Array {
  if (LITTLE_ENDIAN && payload.byteOffset % 8 === 0) {
    return new BigInt64Array(payload.buffer, payload.byteOffset, n);
  }
  const ts = new BigInt64Array(n);
  if (LITTLE_ENDIAN) new Uint8Array(ts.buffer).set(payload.subarray(0, 8 * n));
  else for (let i = 0; i < n; i++) ts[i] = payload.readBigInt64LE(8 * i);
  return ts;
}

/** The metadata pairs of a payload's entries, from `payload[start, end)` (counts, then ids). */
function readPairs(
  payload: Buffer,
  start: number,
  end: number,
  lineBytes: number,
  meta: BlockMeta,
  symbols: readonly string[],
  symbolByteLengths: readonly number[],
): { offsets: Uint32Array; ids: Uint32Array } {
  const n = meta.entries;
  const r = new UvarintReader(payload, start, end);
  const smOffsets = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const at = smOffsets[i] + 2 * r.read();
    if (at > end) throw new ChunkFormatError('metadata counts exceed block');
    smOffsets[i + 1] = at;
  }
  const totalIds = smOffsets[n];
  if (totalIds > end - r.pos) throw new ChunkFormatError('metadata ids exceed block');
  const smIds = new Uint32Array(totalIds);
  let rawBytes = lineBytes;
  for (let i = 0; i < totalIds; i++) {
    const id = r.read();
    if (id >= symbols.length) throw new ChunkFormatError(`metadata symbol id ${id} out of range`);
    smIds[i] = id;
    rawBytes += symbolByteLengths[id];
  }
  if (r.pos !== end) throw new ChunkFormatError('block line bytes do not match the block length');
  if (rawBytes !== meta.rawBytes) throw new ChunkFormatError('block size does not match its meta');
  return { offsets: smOffsets, ids: smIds };
}
