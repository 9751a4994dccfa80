import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctTrigrams } from './distinct-trigrams';

/** Each trigram of `bytes[from, to)` as `b0 << 16 | b1 << 8 | b2`, once, in ascending order. */
function reference(bytes: Uint8Array, from: number, to: number): number[] {
  const set = new Set<number>();
  for (let i = from; i + 3 <= to; i++)
    set.add((bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2]);
  return [...set].sort((a, b) => a - b);
}

const sorted = (a: Int32Array) => [...a].sort((x, y) => x - y);

describe('distinctTrigrams', () => {
  it('gives each trigram of the range once, wherever the range sits in its buffer', () => {
    // A small alphabet makes repeats, the full one any byte; lengths cover groups of eight and
    // the tail, and the range starts at any byte offset of its ArrayBuffer.
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc
        .array(fc.constantFrom(0, 1, 0x61, 0x62, 0xff), { maxLength: 300 })
        .map((a) => Uint8Array.from(a)),
    );
    fc.assert(
      fc.property(bytes, fc.nat(7), fc.nat(), fc.nat(), (content, pad, a, b) => {
        const buffer = new Uint8Array(pad + content.length + 3).fill(0x7a);
        buffer.set(content, pad);
        const view = buffer.subarray(pad, pad + content.length);
        const from = content.length === 0 ? 0 : a % content.length;
        const to = from + (b % (content.length - from + 1));
        expect(sorted(distinctTrigrams(view, from, to))).toEqual(reference(view, from, to));
      }),
      { numRuns: 500 },
    );
  });

  it('forgets the previous call: a trigram seen before is given again', () => {
    const text = Buffer.from('level=info msg="request completed" status=200');
    const first = sorted(distinctTrigrams(text, 0, text.length));
    expect(sorted(distinctTrigrams(text, 0, text.length))).toEqual(first);
    expect(sorted(distinctTrigrams(text, 6, 10))).toEqual(reference(text, 6, 10));
    expect(distinctTrigrams(text, 0, 2)).toHaveLength(0);
  });
});
