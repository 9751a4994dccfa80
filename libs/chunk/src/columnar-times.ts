/**
 * A columnar block's meta and timestamps for counting (`RunMeta`): the timestamps column, and
 * the line lengths column when asked, decoded without its lines or metadata values.
 */
import {
  type BlockBounds,
  type ColumnarLayout,
  ColumnKind,
  columnBytes,
  decodeTimestamps,
  timestampOffsets,
} from './columnar-block';
import { ChunkFormatError } from './errors';
import { offsetsOf, type RunMeta, type RunTimes } from './run-summary';
import { UvarintReader } from './varint';

export function columnarRunMeta(
  data: () => Buffer,
  layout: ColumnarLayout,
  meta: BlockBounds,
  symbols: readonly string[],
): RunMeta {
  // A pairs column names its metadata only in its rows: the whole block tells them.
  const pairs = layout.columns.some((c) => c.kind === ColumnKind.MetadataPairs);
  const names = layout.columns
    .filter((c) => c.kind === ColumnKind.Metadata)
    .map((c) => {
      if (c.name >= symbols.length) throw new ChunkFormatError('metadata column name out of range');
      return symbols[c.name];
    });
  return {
    entries: meta.entries,
    lineBytes: layout.lineBytes,
    metadataNames: pairs ? undefined : names,
    times: (lengths) => columnarTimes(data(), layout, meta, lengths, names),
  };
}

function columnarTimes(
  data: Buffer,
  layout: ColumnarLayout,
  meta: BlockBounds,
  lengths: boolean,
  names: readonly string[],
): RunTimes {
  const tsCol = layout.columns.find((c) => c.kind === ColumnKind.Timestamps);
  const lenCol = layout.columns.find((c) => c.kind === ColumnKind.LineLengths);
  if (tsCol === undefined || lenCol === undefined) {
    throw new ChunkFormatError('columnar block lacks a timestamps or lengths column');
  }
  const lenBytes = lengths ? columnBytes(data, lenCol) : null;
  return columnTimes(columnBytes(data, tsCol), lenBytes, meta, layout.lineBytes, names);
}

/**
 * A block's times from the bytes of a Timestamps column and, when given, a LineLengths column
 * (a columnar block's, or a row block's side copy: `BlockTimes`), checked against its meta.
 */
export function columnTimes(
  tsBytes: Buffer,
  lenBytes: Buffer | null,
  meta: { readonly minTs: bigint; readonly maxTs: bigint; readonly entries: number },
  lineBytes: number,
  names: readonly string[],
): RunTimes {
  const n = meta.entries;
  if (tsBytes.length < 8) throw new ChunkFormatError('timestamps column too short');
  if (tsBytes.readBigInt64LE(0) !== meta.minTs) {
    throw new ChunkFormatError('block time range does not match its meta');
  }
  let lineOffsets: Uint32Array | null = null;
  if (lenBytes !== null) {
    const lr = new UvarintReader(lenBytes, 0, lenBytes.length);
    lineOffsets = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) lineOffsets[i + 1] = lineOffsets[i] + lr.read();
    if (lr.pos !== lenBytes.length || lineOffsets[n] !== lineBytes) {
      throw new ChunkFormatError('line lengths do not match the lines column');
    }
  }
  const offsets = (origin: bigint): Float64Array => {
    const span = meta.maxTs - meta.minTs;
    // A span of 2^53 ns or more (104 days; no real block) goes through BigInts.
    if (span >= 2n ** 53n) return offsetsOf(decodeTimestamps(tsBytes, n, span), n, origin);
    return timestampOffsets(tsBytes, n, Number(meta.minTs - origin), Number(span));
  };
  return { count: n, offsets, lineOffsets, metadataNames: names };
}
