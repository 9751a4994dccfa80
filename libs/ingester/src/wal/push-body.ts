import type { PushBodySource } from '@logsvc/api';
import { snappyUncompressSync } from '@logsvc/push';
import { ByteReader, DecodeError, uvarintSize } from './codec';
import { bytesSize } from './frame';

/**
 * Where a record may find its lines in the push body it holds (a record of type
 * `PushRefsBody`): the body's bytes in memory, checked one line at a time with `offsetOf`.
 * Offsets fit 31 bits: a larger body is not recorded this way.
 */
export class BodyLines {
  private readonly buffer: ArrayBufferLike;
  private readonly start: number;
  private readonly end: number;

  private constructor(readonly source: PushBodySource) {
    this.buffer = source.plain.buffer;
    this.start = source.plain.byteOffset;
    this.end = this.start + source.plain.length;
  }

  static of(source: PushBodySource | undefined): BodyLines | null {
    return source !== undefined && source.plain.length < 0x7fff_ffff ? new BodyLines(source) : null;
  }

  /** The line's offset in the decompressed body when it is a view of it, else -1. */
  offsetOf(line: Buffer): number {
    const at = line.byteOffset;
    return line.buffer === this.buffer && at >= this.start && at + line.length <= this.end
      ? at - this.start
      : -1;
  }

  /**
   * Whether recording the body is worth it: the line bytes it stands for (`viewBytes`) are
   * more than twice the received block and the offsets that point into it (`refBytes`).
   */
  worthFor(viewBytes: number, refBytes: number): boolean {
    return viewBytes > 2 * this.source.snappy.length + refBytes;
  }

  /** Bytes the body takes in a record: its decompressed length, then the received block. */
  get recordSize(): number {
    return uvarintSize(this.source.plain.length) + bytesSize(this.source.snappy);
  }
}

/** Bytes of a line's reference: its offset plus one, 0 for a line written in the record. */
export function lineRefSize(offset: number): number {
  return uvarintSize(offset + 1);
}

/**
 * The decompressed body a `PushRefsBody` record holds (its length, then the received snappy
 * block); a block that does not decompress to that length is a DecodeError.
 */
export function readBody(r: ByteReader): Buffer {
  const length = r.uvarint();
  const block = r.bytes();
  let plain: Buffer;
  try {
    plain = snappyUncompressSync(block, length);
  } catch (err) {
    throw new DecodeError(`push body does not decompress: ${(err as Error).message}`);
  }
  if (plain.length !== length) {
    throw new DecodeError(`push body decompressed to ${plain.length} bytes, expected ${length}`);
  }
  return plain;
}
