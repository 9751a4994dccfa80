/**
 * A block's metadata value filter: a Bloom filter over the symbol ids of the structured-metadata
 * values of the block's columns that list no values (more than MAX_LISTED_VALUES distinct ones,
 * e.g. trace ids) and of a pairs column. About ten bits and three positions per distinct value:
 * a value the block lacks tests present about 2 % of the time. Ids are those of the chunk's
 * symbol table, so a filter only means something beside that table.
 */
export class ValueFilter {
  private constructor(
    /** The filter's bits, little-endian within each byte; length a multiple of 8. */
    readonly bits: Uint8Array,
  ) {}

  static readonly BITS_PER_VALUE = 10;

  /** The filter of `ids` (`distinct` of them, or an upper bound of that). */
  static build(ids: Iterable<number>, distinct: number): ValueFilter {
    const words = Math.max(1, Math.ceil((distinct * ValueFilter.BITS_PER_VALUE) / 64));
    const bits = new Uint8Array(words * 8);
    const m = bits.length * 8;
    for (const id of ids) {
      for (let k = 0; k < 3; k++) {
        const p = position(id, k, m);
        bits[p >>> 3] |= 1 << (p & 7);
      }
    }
    return new ValueFilter(bits);
  }

  /** A filter read back from its bits (a multiple of 8 bytes, at least 8). */
  static of(bits: Uint8Array): ValueFilter {
    return new ValueFilter(bits);
  }

  /** False only when no metadata value of the filtered columns has symbol id `id`. */
  mayContain(id: number): boolean {
    const m = this.bits.length * 8;
    for (let k = 0; k < 3; k++) {
      const p = position(id, k, m);
      if ((this.bits[p >>> 3] & (1 << (p & 7))) === 0) return false;
    }
    return true;
  }
}

const SEEDS = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d];

function position(id: number, k: number, m: number): number {
  let h = Math.imul(id ^ (k * 0x27d4eb2f), SEEDS[k]) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d) >>> 0;
  h ^= h >>> 12;
  return Math.floor(((h >>> 0) / 0x100000000) * m);
}
