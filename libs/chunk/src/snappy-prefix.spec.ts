import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compress } from './codecs';
import { ChunkFormatError } from './errors';
import { SnappyPrefix } from './snappy-prefix';

// Repetitive bytes (copies, overlapping ones too) mixed with random ones (literals, long ones).
const bytesArb = fc
  .array(
    fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 300 }),
      fc
        .tuple(fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 200 }))
        .map(
          ([unit, times]) => new Uint8Array(Array.from({ length: times }, () => [...unit]).flat()),
        ),
    ),
    { maxLength: 40 },
  )
  .map((parts) => Buffer.concat(parts));

describe('SnappyPrefix', () => {
  it('gives the first bytes of what snappy decompresses, as far as asked', () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 4 }), (bytes, ends) => {
        const prefix = new SnappyPrefix(compress('snappy', bytes));
        expect(prefix.total).toBe(bytes.length);
        for (const end of [...ends].sort((a, b) => a - b)) {
          const have = prefix.ensure(end % (bytes.length + 2));
          expect(have).toBeGreaterThanOrEqual(Math.min(end % (bytes.length + 2), bytes.length));
          expect(prefix.out.subarray(0, have)).toEqual(bytes.subarray(0, have));
        }
        expect(prefix.ensure(bytes.length)).toBe(bytes.length);
        expect(prefix.out.subarray(0, bytes.length)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses cut or corrupt bytes with a format error, never reading past them', () => {
    const bytes = Buffer.from('abcdabcdabcdabcd'.repeat(50) + 'the end');
    const packed = compress('snappy', bytes);
    const cut = packed.subarray(0, packed.length - 3);
    expect(() => new SnappyPrefix(cut).ensure(bytes.length)).toThrow(ChunkFormatError);
    const badCopy = Buffer.from([10, 0b000001_01, 0]); // a copy before any byte is out
    expect(() => new SnappyPrefix(badCopy).ensure(10)).toThrow(ChunkFormatError);
    expect(() => new SnappyPrefix(Buffer.from([0x80, 0x80]))).toThrow(ChunkFormatError);
  });
});
