import { ByteReader, DecodeError, uvarintSize } from './codec';
import type { ChunkCheckpointParts } from '@logsvc/chunk';
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
  /** Closed chunks (MemChunk.encode). */
  readonly closedChunks: readonly Buffer[];
  /**
   * The head chunk (null: none): its cut blocks and its head block's entries uncompressed
   * (`headParts`, MemChunk.checkpointParts), or, for a head block that is empty or took
   * entries out of time order and for checkpoints of older versions, the chunk with its head
   * block compressed as one more block (`headChunk`, MemChunk.encodeSnapshot). At most one is set.
   */
  readonly headChunk: Buffer | null;
  readonly headParts: ChunkCheckpointParts | null;
}

/** `headParts.blocks` of a head chunk with no cut block is written as zero bytes. */
const NO_BLOCKS = Buffer.alloc(0);

/** What follows the closed chunks in a type 8 stream record. */
const enum HeadKind {
  None = 0,
  Chunk = 1,
  Parts = 2,
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

/**
 * A type 8 stream record. The frame is the only copy of the stream's bytes made here: each
 * part is written into it once.
 */
export function encodeCheckpointStream(s: CheckpointStream): Buffer {
  const labels = Buffer.from(s.labelsText, 'utf8');
  const lastLine = s.lastLine ?? NO_BLOCKS;
  const parts = s.headParts;
  let size = 1 + stringSize(s.tenant) + bytesSize(labels) + 8 + 1 + 8 + 8 + bytesSize(lastLine);
  size += uvarintSize(s.closedChunks.length);
  for (const c of s.closedChunks) size += bytesSize(c);
  size += 1;
  if (parts) size += bytesSize(parts.blocks ?? NO_BLOCKS) + bytesSize(parts.head);
  else if (s.headChunk) size += bytesSize(s.headChunk);
  const w = allocFrame(size);
  w.u8(RecordType.CheckpointStreamParts);
  w.string(s.tenant, Buffer.byteLength(s.tenant, 'utf8'));
  w.bytes(labels);
  w.u64(s.mark);
  w.u8(s.lastLine ? 1 : 0);
  w.i64(s.newestNs);
  w.i64(s.lastTimestampNs);
  w.bytes(lastLine);
  w.uvarint(s.closedChunks.length);
  for (const c of s.closedChunks) w.bytes(c);
  if (parts) {
    w.u8(HeadKind.Parts);
    w.bytes(parts.blocks ?? NO_BLOCKS);
    w.bytes(parts.head);
  } else if (s.headChunk) {
    w.u8(HeadKind.Chunk);
    w.bytes(s.headChunk);
  } else {
    w.u8(HeadKind.None);
  }
  return sealFrame(w);
}

export type CheckpointRecord =
  | { type: RecordType.CheckpointHeader; firstSegment: number; seq: number }
  | { type: RecordType.CheckpointEnd; streamCount: number }
  | {
      type: RecordType.CheckpointStream | RecordType.CheckpointStreamParts;
      stream: CheckpointStream;
    };

export function decodeCheckpointRecord(payload: Buffer): CheckpointRecord {
  const r = new ByteReader(payload);
  const type = r.u8();
  switch (type) {
    case RecordType.CheckpointHeader:
      return { type, firstSegment: r.u64(), seq: r.u64() };
    case RecordType.CheckpointEnd:
      return { type, streamCount: r.u64() };
    case RecordType.CheckpointStream:
    case RecordType.CheckpointStreamParts: {
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
      // Type 2 (older versions) has a has-head byte where type 8 has the head's kind.
      const kind = r.u8();
      let headChunk: Buffer | null = null;
      let headParts: ChunkCheckpointParts | null = null;
      if (kind === HeadKind.Chunk) headChunk = r.bytes();
      else if (kind === HeadKind.Parts && type === RecordType.CheckpointStreamParts) {
        const blocks = r.bytes();
        headParts = { blocks: blocks.length > 0 ? blocks : null, head: r.bytes() };
      } else if (kind !== HeadKind.None) {
        throw new DecodeError(`unexpected head chunk kind ${kind}`);
      }
      const stream: CheckpointStream = {
        tenant,
        labelsText,
        mark,
        newestNs,
        lastTimestampNs,
        lastLine: hasLast ? lastLine : null,
        closedChunks,
        headChunk,
        headParts,
      };
      return { type, stream };
    }
    default:
      throw new DecodeError(`unexpected checkpoint record type ${type}`);
  }
}
