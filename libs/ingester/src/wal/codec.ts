/**
 * Little helpers for the WAL and checkpoint byte layouts: unsigned LEB128 varints,
 * length-prefixed byte strings and 64-bit integers, over plain Buffers.
 */

/** Bytes `uvarint(n)` takes (n is a non-negative safe integer). */
export function uvarintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Appends to one preallocated Buffer; callers size it exactly first. */
export class ByteWriter {
  pos = 0;

  constructor(readonly buf: Buffer) {}

  u8(n: number): void {
    this.buf[this.pos++] = n;
  }

  u32(n: number): void {
    this.buf.writeUInt32LE(n, this.pos);
    this.pos += 4;
  }

  /** A non-negative safe integer as two little-endian u32 halves. */
  u64(n: number): void {
    this.buf.writeUInt32LE(n % 0x1_0000_0000, this.pos);
    this.buf.writeUInt32LE(Math.floor(n / 0x1_0000_0000), this.pos + 4);
    this.pos += 8;
  }

  i64(n: bigint): void {
    this.buf.writeBigInt64LE(n, this.pos);
    this.pos += 8;
  }

  uvarint(n: number): void {
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }

  bytes(b: Buffer): void {
    this.uvarint(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A length-prefixed UTF-8 string; `byteLength` must be `Buffer.byteLength(s)`. */
  string(s: string, byteLength: number): void {
    this.uvarint(byteLength);
    this.pos += this.buf.write(s, this.pos, byteLength, 'utf8');
  }
}

/** Thrown by ByteReader when a record ends early or holds an impossible value. */
export class DecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecodeError';
  }
}

/** Reads what ByteWriter wrote, bounds-checked; slices are views into the source. */
export class ByteReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new DecodeError(`record truncated at byte ${this.pos}`);
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  u64(): number {
    this.need(8);
    const lo = this.buf.readUInt32LE(this.pos);
    const hi = this.buf.readUInt32LE(this.pos + 4);
    this.pos += 8;
    if (hi >= 0x20_0000) throw new DecodeError('64-bit value beyond 2^53');
    return hi * 0x1_0000_0000 + lo;
  }

  i64(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  uvarint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      this.need(1);
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw new DecodeError('varint too long');
  }

  bytes(): Buffer {
    const len = this.uvarint();
    this.need(len);
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  string(): string {
    const len = this.uvarint();
    this.need(len);
    const out = this.buf.toString('utf8', this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
}
