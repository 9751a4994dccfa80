import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenFilter } from './token-filter';

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
