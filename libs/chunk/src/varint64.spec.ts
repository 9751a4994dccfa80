import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkFormatError } from './errors';
import { pushUvarint64, Uvarint64Reader } from './varint64';

function encoded(values: readonly bigint[]): Uint8Array {
  const out: number[] = [];
  for (const v of values) pushUvarint64(out, v);
  return Uint8Array.from(out);
}

describe('Uvarint64Reader', () => {
  it('reads back every value written, as a bigint and as a number below 2^53', () => {
    const value = fc.oneof(
      fc.bigInt({ min: 0n, max: 2n ** 49n }),
      fc.bigInt({ min: 2n ** 49n, max: 2n ** 53n + 5n }),
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 20 }), (values) => {
        const bytes = encoded(values);
        const big = new Uvarint64Reader(bytes, 0, bytes.length);
        const num = new Uvarint64Reader(bytes, 0, bytes.length);
        for (const v of values) {
          expect(big.read()).toBe(v);
          // Past 2^53 - 1 a number would not be exact: -1, the varint consumed all the same.
          expect(num.readNumber()).toBe(v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : -1);
          expect(num.pos).toBe(big.pos);
        }
        expect(num.pos).toBe(bytes.length);
      }),
    );
  });

  it('refuses a truncated varint and one longer than 64 bits, as a number too', () => {
    const truncated = Uint8Array.from([0x80, 0x80]);
    expect(() => new Uvarint64Reader(truncated, 0, 2).readNumber()).toThrow(ChunkFormatError);
    const long = Uint8Array.from([...Array(10).fill(0xff), 0x01]);
    expect(() => new Uvarint64Reader(long, 0, long.length).readNumber()).toThrow(ChunkFormatError);
  });
});
