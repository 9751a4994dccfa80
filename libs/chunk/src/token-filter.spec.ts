import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenFilter } from './token-filter';

/**
 * The filter as every release has built it, written the plain way: a set of the trigrams,
 * 4 bits per distinct trigram rounded up to 64-bit words, two multiplicative hashes. Filters on
 * disk were built this way, so a build must give these bits.
 */
function referenceBits(bytes: Uint8Array): Uint8Array {
  const trigrams = new Set<number>();
  for (let i = 0; i + 3 <= bytes.length; i++)
    trigrams.add((bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2]);
  const bits = new Uint8Array(Math.max(1, Math.ceil((trigrams.size * 4) / 64)) * 8);
  const m = bits.length * 8;
  for (const t of trigrams) {
    const a = Math.floor(((Math.imul(t, 0x9e3779b1) >>> 0) / 0x100000000) * m);
    const b = Math.floor(((Math.imul(t ^ 0x5bd1e995, 0x85ebca77) >>> 0) / 0x100000000) * m);
    bits[a >>> 3] |= 1 << (a & 7);
    bits[b >>> 3] |= 1 << (b & 7);
  }
  return bits;
}

const printable = fc.integer({ min: 0x20, max: 0x7e });

describe('TokenFilter', () => {
  it('never rules out a substring of the bytes it was built from', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const filter = TokenFilter.build(bytes, 0, bytes.length);
        const from = bytes.length === 0 ? 0 : a % bytes.length;
        const needle = bytes.subarray(from, from + (b % 20));
        expect(filter.mayContain(needle)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never rules out a needle taken from its range of a larger buffer', () => {
    const text = fc.array(fc.oneof(printable, fc.constantFrom(0x61, 0x62, 0x63)), {
      minLength: 3,
      maxLength: 2000,
    });
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.nat(), (content, cut, a, b) => {
        const bytes = Buffer.concat([
          Buffer.from('head'),
          Buffer.from(content),
          Buffer.from('tail'),
        ]);
        const from = 4 + (cut % 3);
        const to = bytes.length - 4;
        const filter = TokenFilter.build(bytes, from, to);
        const start = from + (a % (to - from - 2));
        const needle = bytes.subarray(start, Math.min(to, start + 3 + (b % 30)));
        expect(filter.mayContain(needle)).toBe(true);
        expect(filter.mayContainAny([Buffer.from('\u0000\u0001\u0002'), needle])).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the bits filters on disk were built with', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 1200 }),
      fc.array(printable, { maxLength: 1200 }).map((a) => Uint8Array.from(a)),
    );
    fc.assert(
      fc.property(bytes, (content) => {
        expect(TokenFilter.build(content, 0, content.length).bits).toEqual(referenceBits(content));
      }),
      { numRuns: 200 },
    );
  });

  it('lets through few trigrams the bytes do not hold', () => {
    // About 4 bits per distinct trigram and two positions: 15 % expected, as before.
    fc.assert(
      fc.property(
        fc.array(printable, { minLength: 600, maxLength: 6000 }),
        fc.array(fc.tuple(printable, printable, printable), { minLength: 400, maxLength: 400 }),
        (content, probes) => {
          const bytes = Buffer.from(content);
          const filter = TokenFilter.build(bytes, 0, bytes.length);
          const absent = probes.map((p) => Buffer.from(p)).filter((p) => !bytes.includes(p));
          const passed = absent.filter((p) => filter.mayContain(p)).length;
          expect(passed / absent.length).toBeLessThan(0.3);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('rules out most needles the bytes do not hold', () => {
    const text = Buffer.from(
      Array.from({ length: 300 }, (_, i) => `level=info msg="request completed" id=${i}`).join(
        '\n',
      ),
    );
    const filter = TokenFilter.build(text, 0, text.length);
    let passed = 0;
    for (let i = 0; i < 200; i++)
      if (filter.mayContain(Buffer.from(`trace-${i * 7919}-zq`))) passed++;
    expect(passed).toBeLessThan(20);
    expect(filter.bits.length).toBeLessThan(text.length / 20);
  });
});
