import { ByteReader, DecodeError, uvarintSize } from './codec';
import { allocFrame, bytesSize, RecordType, sealFrame, stringSize } from './frame';

export { FRAME_HEADER_SIZE, MAX_FRAME_SIZE, readFrame, RecordType, type FrameRead } from './frame';
export type { DecodedPush, DecodedPushStream, WalStreamInput } from './push-record';

/** A stream's unflushed state as a checkpoint holds it. */
export interface CheckpointStream {
  readonly tenant: string;
  readonly labelsText: string;
  /** WAL records of this stream with a sequence number below `mark` are in `chunks`. */
  readonly mark: number;
  /** Highest timestamp accepted, or -1n for none. */
  readonly newestNs: bigint;
  /** The last accepted entry, for de-duplication; null when there is none. */
  readonly lastTimestampNs: bigint;
  readonly lastLine: Buffer | null;
  /** Encoded chunks (MemChunk.encode), closed ones first, the head chunk (if any) last. */
  readonly closedChunks: readonly Buffer[];
  readonly headChunk: Buffer | null;
}

export function encodeCheckpointHeader(firstSegment: number, seq: number): Buffer {
  const w = allocFrame(1 + 8 + 8);
  w.u8(RecordType.CheckpointHeader);
  w.u64(firstSegment);
  w.u64(seq);
  return sealFrame(w);
}

export function encodeCheckpointEnd(streamCount: number): Buffer {
  const w = allocFrame(1 + 8);
  w.u8(RecordType.CheckpointEnd);
  w.u64(streamCount);
  return sealFrame(w);
}

export function encodeCheckpointStream(s: CheckpointStream): Buffer {
  const labels = Buffer.from(s.labelsText, 'utf8');
  const lastLine = s.lastLine ?? Buffer.alloc(0);
  let size = 1 + stringSize(s.tenant) + bytesSize(labels) + 8 + 1 + 8 + 8 + bytesSize(lastLine);
  size += uvarintSize(s.closedChunks.length);
  for (const c of s.closedChunks) size += bytesSize(c);
  size += 1 + (s.headChunk ? bytesSize(s.headChunk) : 0);
  const w = allocFrame(size);
  w.u8(RecordType.CheckpointStream);
  w.string(s.tenant, Buffer.byteLength(s.tenant, 'utf8'));
  w.bytes(labels);
  w.u64(s.mark);
  w.u8(s.lastLine ? 1 : 0);
  w.i64(s.newestNs);
  w.i64(s.lastTimestampNs);
  w.bytes(lastLine);
  w.uvarint(s.closedChunks.length);
  for (const c of s.closedChunks) w.bytes(c);
  w.u8(s.headChunk ? 1 : 0);
  if (s.headChunk) w.bytes(s.headChunk);
  return sealFrame(w);
}

export type CheckpointRecord =
  | { type: RecordType.CheckpointHeader; firstSegment: number; seq: number }
  | { type: RecordType.CheckpointEnd; streamCount: number }
  | { type: RecordType.CheckpointStream; stream: CheckpointStream };

export function decodeCheckpointRecord(payload: Buffer): CheckpointRecord {
  const r = new ByteReader(payload);
  const type = r.u8();
  switch (type) {
    case RecordType.CheckpointHeader:
      return { type, firstSegment: r.u64(), seq: r.u64() };
    case RecordType.CheckpointEnd:
      return { type, streamCount: r.u64() };
    case RecordType.CheckpointStream: {
      const tenant = r.string();
      const labelsText = r.string();
      const mark = r.u64();
      const hasLast = r.u8() === 1;
      const newestNs = r.i64();
      const lastTimestampNs = r.i64();
      const lastLine = r.bytes();
      const closedChunks: Buffer[] = [];
      const n = r.uvarint();
      for (let i = 0; i < n; i++) closedChunks.push(r.bytes());
      const headChunk = r.u8() === 1 ? r.bytes() : null;
      const stream: CheckpointStream = {
        tenant,
        labelsText,
        mark,
        newestNs,
        lastTimestampNs,
        lastLine: hasLast ? lastLine : null,
        closedChunks,
        headChunk,
      };
      return { type, stream };
    }
    default:
      throw new DecodeError(`unexpected checkpoint record type ${type}`);
  }
}
