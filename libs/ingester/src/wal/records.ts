import { crc32 } from 'node:zlib';
import { EMPTY_LABELS, type LabelPair, type Labels, type LogEntry } from '@logsvc/api';
import { ByteReader, ByteWriter, DecodeError, uvarintSize } from './codec';

/** Every record is framed as `u32 payload length | u32 CRC-32 (IEEE) of payload | payload`. */
export const FRAME_HEADER_SIZE = 8;
/** Larger frames are treated as corruption rather than allocated. */
export const MAX_FRAME_SIZE = 1 << 30;

export enum RecordType {
  Push = 1,
  CheckpointStream = 2,
  CheckpointEnd = 3,
  CheckpointHeader = 4,
}

export interface WalStreamInput {
  /** The canonical `{a="1"}` text of the stream's labels, as UTF-8. */
  readonly labelsText: Buffer;
  readonly entries: readonly LogEntry[];
}

export interface DecodedPushStream {
  readonly labelsText: string;
  readonly entries: LogEntry[];
}

export interface DecodedPush {
  readonly seq: number;
  readonly tenant: string;
  readonly streams: DecodedPushStream[];
}

function allocFrame(payloadSize: number): ByteWriter {
  const w = new ByteWriter(Buffer.allocUnsafe(FRAME_HEADER_SIZE + payloadSize));
  w.pos = FRAME_HEADER_SIZE;
  return w;
}

function sealFrame(w: ByteWriter): Buffer {
  const payloadSize = w.pos - FRAME_HEADER_SIZE;
  if (w.pos !== w.buf.length) throw new Error(`frame size mismatch: ${w.pos} != ${w.buf.length}`);
  w.buf.writeUInt32LE(payloadSize, 0);
  w.buf.writeUInt32LE(crc32(w.buf.subarray(FRAME_HEADER_SIZE)), 4);
  return w.buf;
}

function stringSize(s: string): number {
  const n = Buffer.byteLength(s, 'utf8');
  return uvarintSize(n) + n;
}

function bytesSize(b: Buffer): number {
  return uvarintSize(b.length) + b.length;
}

function metadataSize(sm: Labels): number {
  let size = uvarintSize(sm.length);
  for (const p of sm) size += stringSize(p.name) + stringSize(p.value);
  return size;
}

function writeMetadata(w: ByteWriter, sm: Labels): void {
  w.uvarint(sm.length);
  for (const p of sm) {
    w.string(p.name, Buffer.byteLength(p.name, 'utf8'));
    w.string(p.value, Buffer.byteLength(p.value, 'utf8'));
  }
}

function readMetadata(r: ByteReader): Labels {
  const n = r.uvarint();
  if (n === 0) return EMPTY_LABELS;
  const out: LabelPair[] = [];
  for (let i = 0; i < n; i++) out.push({ name: r.string(), value: r.string() });
  return out;
}

/** One push request (only its accepted entries) as a framed WAL record. */
export function encodePushRecord(
  seq: number,
  tenant: string,
  streams: readonly WalStreamInput[],
): Buffer {
  const tenantBytes = Buffer.byteLength(tenant, 'utf8');
  let size = 1 + 8 + uvarintSize(tenantBytes) + tenantBytes + uvarintSize(streams.length);
  for (const s of streams) {
    size += bytesSize(s.labelsText) + uvarintSize(s.entries.length);
    for (const e of s.entries) size += 8 + bytesSize(e.line) + metadataSize(e.structuredMetadata);
  }
  const w = allocFrame(size);
  w.u8(RecordType.Push);
  w.u64(seq);
  w.string(tenant, tenantBytes);
  w.uvarint(streams.length);
  for (const s of streams) {
    w.bytes(s.labelsText);
    w.uvarint(s.entries.length);
    for (const e of s.entries) {
      w.i64(e.timestampNs);
      w.bytes(e.line);
      writeMetadata(w, e.structuredMetadata);
    }
  }
  return sealFrame(w);
}

/** Decodes a push payload; lines are views into `payload`. */
export function decodePushRecord(payload: Buffer): DecodedPush {
  const r = new ByteReader(payload);
  const type = r.u8();
  if (type !== RecordType.Push) throw new DecodeError(`unexpected WAL record type ${type}`);
  const seq = r.u64();
  const tenant = r.string();
  const streamCount = r.uvarint();
  const streams: DecodedPushStream[] = [];
  for (let i = 0; i < streamCount; i++) {
    const labelsText = r.string();
    const n = r.uvarint();
    const entries: LogEntry[] = [];
    for (let j = 0; j < n; j++) {
      const timestampNs = r.i64();
      const line = r.bytes();
      entries.push({ timestampNs, line, structuredMetadata: readMetadata(r) });
    }
    streams.push({ labelsText, entries });
  }
  if (!r.done) throw new DecodeError('trailing bytes after push record');
  return { seq, tenant, streams };
}

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

export type FrameRead =
  { readonly payload: Buffer; readonly next: number } | { readonly problem: string } | null;

/**
 * Reads the frame at `pos`: its payload and the offset after it, null at the end of the buffer,
 * or a problem when the length runs past the buffer, is zero, or the CRC does not match (a torn
 * or corrupt write).
 */
export function readFrame(buf: Buffer, pos: number): FrameRead {
  if (pos >= buf.length) return null;
  if (buf.length - pos < FRAME_HEADER_SIZE) return { problem: `torn frame header at byte ${pos}` };
  const len = buf.readUInt32LE(pos);
  const crc = buf.readUInt32LE(pos + 4);
  if (len === 0 || len > MAX_FRAME_SIZE) {
    return { problem: `invalid frame length ${len} at byte ${pos}` };
  }
  const end = pos + FRAME_HEADER_SIZE + len;
  if (end > buf.length) return { problem: `torn frame at byte ${pos} (needs ${len} bytes)` };
  const payload = buf.subarray(pos + FRAME_HEADER_SIZE, end);
  if (crc32(payload) !== crc) return { problem: `CRC mismatch at byte ${pos}` };
  return { payload, next: end };
}
