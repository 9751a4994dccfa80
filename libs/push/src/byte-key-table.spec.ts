import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteKeyTable } from './byte-key-table';

describe('ByteKeyTable', () => {
  it('finds every key by its bytes wherever they lie, as a Map of the same keys does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 3000 }),
        fc.nat({ max: 7 }),
        (keys, offset) => {
          const sut = new ByteKeyTable<number>();
          const model = new Map<string, number>();
          keys.forEach((key, i) => {
            // Each key inside a larger buffer, at an offset, as a field in a push body.
            const body = Buffer.concat([Buffer.alloc(offset, 0xff), key, Buffer.from([0xfe])]);
            const hex = Buffer.from(key).toString('hex');
            expect(sut.get(body, offset, offset + key.length)).toBe(model.get(hex));
            if (!model.has(hex)) {
              model.set(hex, i);
              sut.set(body, offset, offset + key.length, i);
            }
          });
          expect(sut.size).toBe(model.size);
          for (const [hex, value] of model) {
            const key = Buffer.from(hex, 'hex');
            expect(sut.get(key, 0, key.length)).toBe(value);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps finding keys while its slots, entries and key bytes grow', () => {
    const sut = new ByteKeyTable<number>();
    const key = (i: number): Buffer =>
      Buffer.from(`{app="growth", pod="pod-${i}-${'x'.repeat(40)}"}`);
    for (let i = 0; i < 5000; i++) sut.set(key(i), 0, key(i).length, i);
    for (let i = 0; i < 5000; i++) expect(sut.get(key(i), 0, key(i).length)).toBe(i);
    expect(sut.get(key(5000), 0, key(5000).length)).toBeUndefined();
  });

  it('forgets everything on clear and takes keys again after', () => {
    const sut = new ByteKeyTable<string>();
    const key = Buffer.from('{app="a"}');
    sut.set(key, 0, key.length, 'first');
    sut.clear();
    expect(sut.get(key, 0, key.length)).toBeUndefined();
    expect(sut.size).toBe(0);
    sut.set(key, 0, key.length, 'second');
    expect(sut.get(key, 0, key.length)).toBe('second');
  });
});
