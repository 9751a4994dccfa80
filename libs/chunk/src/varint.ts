import { ChunkFormatError } from './errors';

/** Bytes needed for `v` (0 <= v < 2^32) as an unsigned LEB128 varint. */
export function uvarintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

/**
 * Writes `v` (0 <= v < 2^53: `& 0x7f` keeps the low bits of larger numbers too) at `pos`;
 * returns the position after it.
 */
export function writeUvarint(buf: Uint8Array, pos: number, v: number): number {
  while (v >= 0x80) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  buf[pos++] = v;
  return pos;
}

/**
 * Reads unsigned varints (at most 32 bits) from a bounded region; `pos` advances. Errors are
 * ChunkFormatError so corrupt input never yields a wrong number silently.
 */
export class UvarintReader {
  constructor(
    private readonly buf: Buffer,
    public pos: number,
    private readonly end: number,
  ) {}

  read(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.end) throw new ChunkFormatError('truncated varint');
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * mul;
      if (b < 0x80) {
        if (result > 0xffffffff) throw new ChunkFormatError('varint exceeds 32 bits');
        return result;
      }
      mul *= 128;
    }
    throw new ChunkFormatError('varint longer than 5 bytes');
  }
}
