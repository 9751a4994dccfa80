import { crc32 } from '@node-rs/crc32';
import type { SlabPool } from '@logsvc/chunk';
import { ByteWriter, uvarintSize } from './codec';

/** Every record is framed as `u32 payload length | u32 CRC-32 (IEEE) of payload | payload`. */
export const FRAME_HEADER_SIZE = 8;
/** Larger frames are treated as corruption rather than allocated. */
export const MAX_FRAME_SIZE = 1 << 30;

/** The first payload byte of every record. */
export enum RecordType {
  /** Push record with metadata inline per entry (written by older versions; still replayed). */
  PushV1 = 1,
  CheckpointStream = 2,
  CheckpointEnd = 3,
  CheckpointHeader = 4,
  /** Push record with a per-record metadata pair table and column-wise entries. */
  Push = 5,
  /** As `Push`, with streams named by series number (label text only where a number is new). */
  PushRefs = 6,
  /** As `PushRefs`, holding the push's received body: lines are offsets into it. */
  PushRefsBody = 7,
  /** As `CheckpointStream`, the head chunk's open block uncompressed (see records.ts). */
  CheckpointStreamParts = 8,
}

/**
 * A writer over a new frame buffer (from `pool` when given), positioned at the start of the
 * payload.
 */
export function allocFrame(payloadSize: number, pool?: SlabPool): ByteWriter {
  const size = FRAME_HEADER_SIZE + payloadSize;
  const w = new ByteWriter(pool ? pool.take(size) : Buffer.allocUnsafe(size));
  w.pos = FRAME_HEADER_SIZE;
  return w;
}

/** Fills in the frame header of a completely written frame and returns the frame. */
export function sealFrame(w: ByteWriter): Buffer {
  const payloadSize = w.pos - FRAME_HEADER_SIZE;
  if (w.pos !== w.buf.length) throw new Error(`frame size mismatch: ${w.pos} != ${w.buf.length}`);
  w.buf.writeUInt32LE(payloadSize, 0);
  w.buf.writeUInt32LE(crc32(w.buf.subarray(FRAME_HEADER_SIZE)), 4);
  return w.buf;
}

/** Bytes of a length-prefixed UTF-8 string. */
export function stringSize(s: string): number {
  const n = Buffer.byteLength(s, 'utf8');
  return uvarintSize(n) + n;
}

/** Bytes of a length-prefixed byte string. */
export function bytesSize(b: Buffer): number {
  return uvarintSize(b.length) + b.length;
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
