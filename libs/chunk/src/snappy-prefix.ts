/**
 * Decompresses the start of a raw snappy block only as far as a reader asks: a row-format block
 * keeps its timestamps, line lengths and metadata ids before its lines, so a count over time
 * reads those few bytes per entry and leaves the lines compressed. Corrupt input raises
 * ChunkFormatError.
 */
import { ChunkFormatError } from './errors';

export class SnappyPrefix {
  /** The decompressed bytes, valid up to `length`; replaced by a longer one as `ensure` goes on. */
  out: Buffer;
  length = 0;
  /** What the whole block decompresses to. */
  readonly total: number;
  private pos: number;

  constructor(private readonly src: Buffer) {
    let size = 0;
    let shift = 0;
    let pos = 0;
    for (;;) {
      if (pos >= src.length || shift > 28) throw new ChunkFormatError('bad snappy length');
      const b = src[pos++];
      size += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    this.total = size;
    // Grown as asked: a reader of the start never allocates the whole block.
    this.out = Buffer.allocUnsafe(Math.min(size, 1024));
    this.pos = pos;
  }

  /** Decompresses until at least `end` bytes are out (or all of them); returns `length`. */
  ensure(end: number): number {
    const src = this.src;
    const srcEnd = src.length;
    const outEnd = this.total;
    const goal = end < outEnd ? end : outEnd;
    // Room for the goal; an element running past it grows `out` again.
    let out = this.out;
    if (out.length < goal) out = this.grow(this.length, goal);
    let pos = this.pos;
    let at = this.length;
    while (at < goal) {
      if (pos >= srcEnd) throw new ChunkFormatError('truncated snappy block');
      const tag = src[pos++];
      const kind = tag & 3;
      if (kind === 0) {
        let len = tag >>> 2;
        if (len >= 60) {
          const extra = len - 59;
          if (pos + extra > srcEnd) throw new ChunkFormatError('truncated snappy literal');
          len = 0;
          for (let i = 0; i < extra; i++) len += src[pos + i] * 2 ** (8 * i);
          pos += extra;
        }
        len += 1;
        if (pos + len > srcEnd || at + len > outEnd) {
          throw new ChunkFormatError('snappy literal runs past its block');
        }
        if (at + len > out.length) out = this.grow(at, at + len);
        // Short copies byte by byte: Buffer.copy costs more than it moves under ~64 bytes.
        if (len < 64) for (let i = 0; i < len; i++) out[at + i] = src[pos + i];
        else out.set(src.subarray(pos, pos + len), at);
        pos += len;
        at += len;
        continue;
      }
      let len: number;
      let offset: number;
      if (kind === 1) {
        if (pos + 1 > srcEnd) throw new ChunkFormatError('truncated snappy copy');
        len = 4 + ((tag >>> 2) & 7);
        offset = ((tag >>> 5) << 8) | src[pos++];
      } else if (kind === 2) {
        if (pos + 2 > srcEnd) throw new ChunkFormatError('truncated snappy copy');
        len = 1 + (tag >>> 2);
        offset = src[pos] | (src[pos + 1] << 8);
        pos += 2;
      } else {
        if (pos + 4 > srcEnd) throw new ChunkFormatError('truncated snappy copy');
        len = 1 + (tag >>> 2);
        offset = src.readUInt32LE(pos);
        pos += 4;
      }
      if (offset === 0 || offset > at || at + len > outEnd) {
        throw new ChunkFormatError('bad snappy copy');
      }
      if (at + len > out.length) out = this.grow(at, at + len);
      if (len >= 64 && offset >= len) {
        out.copyWithin(at, at - offset, at - offset + len);
        at += len;
      } else {
        // Short, or overlapping (repeating the last `offset` bytes): byte by byte.
        for (let i = 0; i < len; i++, at++) out[at] = out[at - offset];
      }
    }
    this.pos = pos;
    this.length = at;
    return at;
  }

  /** A longer `out` holding the `valid` bytes decompressed so far, with room up to `need`. */
  private grow(valid: number, need: number): Buffer {
    const size = Math.min(this.total, Math.max(2 * this.out.length, need));
    const grown = Buffer.allocUnsafe(size);
    this.out.copy(grown, 0, 0, valid);
    this.out = grown;
    return grown;
  }
}
