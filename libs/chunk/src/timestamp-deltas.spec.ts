import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkFormatError } from './errors';
import { TimestampDeltaReader } from './timestamp-deltas';
import { pushUvarint } from './varint64';

function encoded(values: readonly number[]): Uint8Array {
  const out: number[] = [];
  for (const v of values) pushUvarint(out, v);
  return Uint8Array.from(out);
}

describe('TimestampDeltaReader', () => {
  it('reads back every delta written, of every length, away from the end and near it', () => {
    const delta = fc.oneof(
      fc.integer({ min: 0, max: 2 ** 7 }),
      fc.integer({ min: 0, max: 2 ** 28 + 5 }),
      fc.integer({ min: 2 ** 27, max: 2 ** 29 }),
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    );
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 30 }), (values) => {
        const bytes = encoded(values);
        const reader = new TimestampDeltaReader(bytes, 0);
        for (const v of values) expect(reader.read()).toBe(v);
        expect(reader.pos).toBe(bytes.length);
      }),
    );
  });

  it('refuses a truncated delta and one longer than nine bytes, with bytes after it or not', () => {
    const truncated = Uint8Array.from([0x80, 0x80]);
    expect(() => new TimestampDeltaReader(truncated, 0).read()).toThrow(ChunkFormatError);
    const long = [...Array(9).fill(0xff), 0x01];
    for (const bytes of [long, [...long, ...Array(12).fill(0)]]) {
      const reader = new TimestampDeltaReader(Uint8Array.from(bytes), 0);
      expect(() => reader.read()).toThrow(ChunkFormatError);
    }
  });
});
