/** Minimal growable writer and bounds-checked reader for the index file format. */

export class BinaryWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initial = 4096) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Unsigned LEB128 of a non-negative safe integer. */
  uvarint(value: number): void {
    this.reserve(8);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  u32(value: number): void {
    this.reserve(4);
    this.buf.writeUInt32BE(value >>> 0, this.pos);
    this.pos += 4;
  }

  i64(value: bigint): void {
    this.reserve(8);
    this.buf.writeBigInt64BE(value, this.pos);
    this.pos += 8;
  }

  bytes(data: Buffer): void {
    this.reserve(data.length);
    data.copy(this.buf, this.pos);
    this.pos += data.length;
  }

  /** uvarint length + UTF-8 bytes. */
  string(s: string): void {
    const len = Buffer.byteLength(s, 'utf8');
    this.uvarint(len);
    this.reserve(len);
    this.buf.write(s, this.pos, 'utf8');
    this.pos += len;
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

/** Thrown by BinaryReader on truncated or malformed input. */
export class BinaryFormatError extends Error {}

export class BinaryReader {
  private pos = 0;

  constructor(private readonly buf: Buffer) {}

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) {
      throw new BinaryFormatError(`unexpected end of data at offset ${this.pos}`);
    }
  }

  uvarint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      this.need(1);
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) {
        if (!Number.isSafeInteger(result)) break;
        return result;
      }
      scale *= 0x80;
    }
    throw new BinaryFormatError(`varint too large at offset ${this.pos}`);
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  i64(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  bytes(n: number): Buffer {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    const len = this.uvarint();
    return this.bytes(len).toString('utf8');
  }

  /** A count of items each at least `minItemBytes` long, checked against the bytes left. */
  count(minItemBytes: number): number {
    const n = this.uvarint();
    if (n * minItemBytes > this.remaining) {
      throw new BinaryFormatError(`count ${n} exceeds the remaining ${this.remaining} bytes`);
    }
    return n;
  }
}
