import { ChunkFormatError } from './errors';

/** The longest delta a reader takes: 9 bytes of 7 bits (the block span is checked after). */
const LONGEST = 9;

/**
 * Reads a timestamps column's uvarint deltas as numbers; `pos` advances. While a whole delta
 * fits before the end, the bytes are read without a bounds check each, and deltas of up to 4
 * bytes (2^28 ns, a quarter second: nearly all) are put together with integer shifts; this is
 * the inner loop of every count over a block's timestamps.
 */
export class TimestampDeltaReader {
  private readonly safe: number;

  constructor(
    private readonly bytes: Uint8Array,
    public pos: number,
  ) {
    this.safe = bytes.length - LONGEST;
  }

  read(): number {
    if (this.pos > this.safe) return this.readNearEnd();
    const bytes = this.bytes;
    let at = this.pos;
    let b = bytes[at++];
    let delta = b & 0x7f;
    if (b >= 0x80) {
      b = bytes[at++];
      delta |= (b & 0x7f) << 7;
      if (b >= 0x80) {
        b = bytes[at++];
        delta |= (b & 0x7f) << 14;
        if (b >= 0x80) {
          b = bytes[at++];
          delta |= (b & 0x7f) << 21;
          let mul = 2 ** 28;
          while (b >= 0x80) {
            if (mul > 2 ** 56) throw new ChunkFormatError('timestamp delta exceeds the block span');
            b = bytes[at++];
            delta += (b & 0x7f) * mul;
            mul *= 128;
          }
        }
      }
    }
    this.pos = at;
    return delta;
  }

  /** The last deltas, each byte checked against the end. */
  private readNearEnd(): number {
    const bytes = this.bytes;
    let delta = 0;
    let mul = 1;
    let b: number;
    do {
      if (this.pos >= bytes.length) throw new ChunkFormatError('truncated varint');
      if (mul > 2 ** 56) throw new ChunkFormatError('timestamp delta exceeds the block span');
      b = bytes[this.pos++];
      delta += (b & 0x7f) * mul;
      mul *= 128;
    } while (b >= 0x80);
    return delta;
  }
}
