import { describe, expect, it } from 'vitest';
import { SlabPool } from './slab-pool';

describe('SlabPool', () => {
  it('hands out pieces that never overlap while they are held', () => {
    const pool = new SlabPool({ slabSize: 1024 });
    const pieces = Array.from({ length: 40 }, (_, i) => {
      const piece = pool.take(25 + i);
      piece.fill(i);
      return piece;
    });
    pieces.forEach((piece, i) => expect(piece.every((b) => b === i)).toBe(true));
    expect(pieces.map((p) => p.length)).toEqual(pieces.map((_, i) => 25 + i));
  });

  it('reuses a slab once every piece cut from it is back', () => {
    const pool = new SlabPool({ slabSize: 1024 });
    const first = [pool.take(100), pool.take(100)];
    const slab = first[0].buffer;
    for (const p of first) pool.release(p);
    const again = pool.take(100);
    expect(again.buffer).toBe(slab);
    expect(again.byteOffset).toBe(first[0].byteOffset);
  });

  it('does not reuse a slab while one of its pieces is held', () => {
    const pool = new SlabPool({ slabSize: 256 });
    const held = pool.take(64);
    held.fill(7);
    pool.release(pool.take(64));
    // Fill the rest of the slab and more: new pieces must never land on `held`.
    for (let i = 0; i < 20; i++) pool.take(64).fill(9);
    expect(held.every((b) => b === 7)).toBe(true);
  });

  it('gives large requests a buffer of their own and ignores foreign buffers', () => {
    const pool = new SlabPool({ slabSize: 1024 });
    const big = pool.take(600);
    expect(big.length).toBe(600);
    expect(pool.owns(big)).toBe(false);
    const piece = pool.take(10);
    expect(pool.owns(piece)).toBe(true);
    pool.release(Buffer.alloc(10));
    pool.release(big);
    piece.fill(3);
    expect(pool.take(10).byteOffset).not.toBe(piece.byteOffset);
  });

  it('keeps aligned offsets so typed-array views over pieces work', () => {
    const pool = new SlabPool({ slabSize: 1024 });
    pool.take(3);
    const next = pool.take(16);
    expect(next.byteOffset % 8).toBe(0);
    expect(() => new BigInt64Array(next.buffer, next.byteOffset, 2)).not.toThrow();
  });
});
