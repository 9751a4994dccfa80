import { distinctTrigrams } from './distinct-trigrams';

/**
 * A block's token filter: a small Bloom filter over every 3-byte sequence (trigram) of the
 * block's line bytes. LogQL's `|=` is a substring match, so a filter of whole words could not
 * rule a block out (`|= "time"` matches `timeout`); a trigram filter can: a line holding a
 * needle of 3 or more bytes holds each of its trigrams, so a block whose filter lacks one of
 * them holds no such line. Two bit positions per trigram, about four bits per distinct
 * trigram, so a trigram the block lacks tests present about 15 % of the time, and a needle is
 * ruled out once one of its trigrams tests absent.
 */
export class TokenFilter {
  private constructor(
    /** The filter's bits, little-endian within each byte; length a multiple of 8. */
    readonly bits: Uint8Array,
  ) {}

  /** Bits set per distinct trigram, before rounding up to whole 64-bit words. */
  static readonly BITS_PER_TRIGRAM = 4;

  /** The filter of `bytes[from, to)` (a block's line bytes). */
  static build(bytes: Uint8Array, from: number, to: number): TokenFilter {
    return new TokenFilter(filterBits(distinctTrigrams(bytes, from, to)));
  }

  /** A filter read back from its bits (a multiple of 8 bytes, at least 8). */
  static of(bits: Uint8Array): TokenFilter {
    return new TokenFilter(bits);
  }

  /** False only when no line of the block can contain `needle`; needles under 3 bytes: true. */
  mayContain(needle: Uint8Array): boolean {
    if (needle.length < 3) return true;
    const m = this.bits.length * 8;
    let t = (needle[0] << 8) | needle[1];
    for (let i = 2; i < needle.length; i++) {
      t = ((t << 8) | needle[i]) & 0xffffff;
      const a = firstPosition(t, m);
      if ((this.bits[a >>> 3] & (1 << (a & 7))) === 0) return false;
      const b = secondPosition(t, m);
      if ((this.bits[b >>> 3] & (1 << (b & 7))) === 0) return false;
    }
    return true;
  }

  /** False only when no line of the block can contain any of `needles`. */
  mayContainAny(needles: readonly Uint8Array[]): boolean {
    return needles.some((n) => this.mayContain(n));
  }
}

/**
 * The bits of the filter of `trigrams` (distinct): 4 per trigram, in whole 64-bit words. A
 * function of its own, so the loop ends it (see distinct-trigrams.ts on V8's on-stack
 * replacement).
 */
function filterBits(trigrams: Int32Array): Uint8Array {
  const words = Math.max(1, Math.ceil((trigrams.length * TokenFilter.BITS_PER_TRIGRAM) / 64));
  const bits = new Uint8Array(words * 8);
  const m = bits.length * 8;
  for (let k = 0; k < trigrams.length; k++) {
    const t = trigrams[k];
    const a = firstPosition(t, m);
    const b = secondPosition(t, m);
    bits[a >>> 3] |= 1 << (a & 7);
    bits[b >>> 3] |= 1 << (b & 7);
  }
  return bits;
}

/*
 * The trigram's two bit positions in a filter of `m` bits (two multiplicative hashes). Filters
 * on disk were built with these: they must never change.
 */

function firstPosition(t: number, m: number): number {
  return Math.floor(((Math.imul(t, 0x9e3779b1) >>> 0) / 0x100000000) * m);
}

function secondPosition(t: number, m: number): number {
  return Math.floor(((Math.imul(t ^ 0x5bd1e995, 0x85ebca77) >>> 0) / 0x100000000) * m);
}
