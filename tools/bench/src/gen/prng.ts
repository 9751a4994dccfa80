/**
 * A small seeded PRNG (mulberry32): the same seed always yields the same sequence, so a
 * generated data set can be reproduced exactly from its seed.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
    this.state = seed >>> 0;
  }

  /** A uniformly distributed 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4_294_967_296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Picks an index with the given relative weights. */
  weighted(weights: readonly number[], total: number): number {
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** `length` lowercase hex digits. */
  hex(length: number): string {
    let s = '';
    while (s.length < length) s += this.nextUint32().toString(16).padStart(8, '0');
    return s.slice(0, length);
  }
}
