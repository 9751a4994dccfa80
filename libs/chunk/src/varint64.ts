import { ChunkFormatError } from './errors';

const TWO_53 = 2n ** 53n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Writes `n` (0 <= n < 2^53) as an unsigned LEB128 varint into `out`. */
export function pushUvarint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
}

/**
 * Writes `v` (0 <= v < 2^64) as an unsigned LEB128 varint into `out` (a growing byte list);
 * values below 2^53 go through numbers, the rest through bigint.
 */
export function pushUvarint64(out: number[], v: bigint): void {
  if (v < TWO_53) {
    pushUvarint(out, Number(v));
    return;
  }
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

/** Reads unsigned varints of up to 64 bits from `buf[pos, end)`; `pos` advances. */
export class Uvarint64Reader {
  constructor(
    private readonly buf: Uint8Array,
    public pos: number,
    private readonly end: number,
  ) {}

  /** The 49 low bits of a varint `low` found longer than 7 bytes. */
  private partial = 0;

  /**
   * The next value as a number, or -1 (the varint read all the same) when it is 2^53 or more.
   * Most values take at most 7 bytes and no bigint is made for them.
   */
  readNumber(): number {
    const n = this.low();
    if (n >= 0) return n;
    const v = this.high(BigInt(this.partial));
    return v > MAX_SAFE ? -1 : Number(v);
  }

  /** The next value as a bigint. */
  read(): bigint {
    const n = this.low();
    return n >= 0 ? BigInt(n) : this.high(BigInt(this.partial));
  }

  /** Up to 7 bytes (49 bits, exact in a number); -1 when the varint goes on (see `partial`). */
  private low(): number {
    const buf = this.buf;
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw new ChunkFormatError('truncated varint');
      const b = buf[this.pos++];
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 128;
    }
    this.partial = n;
    return -1;
  }

  /** Bytes 8 to 10 of a varint whose 49 low bits are `v`. */
  private high(v: bigint): bigint {
    const buf = this.buf;
    let shift = 49n;
    for (let i = 7; i < 10; i++) {
      if (this.pos >= this.end) throw new ChunkFormatError('truncated varint');
      const b = buf[this.pos++];
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) {
        if (v >= 1n << 64n) throw new ChunkFormatError('varint exceeds 64 bits');
        return v;
      }
      shift += 7n;
    }
    throw new ChunkFormatError('varint longer than 10 bytes');
  }
}
