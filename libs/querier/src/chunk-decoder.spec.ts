import { MemChunk } from '@logsvc/chunk';
import { describe, expect, it } from 'vitest';
import { ChunkDecoder } from './chunk-decoder';

function chunkBytes(): Buffer {
  const c = new MemChunk({ encoding: 'snappy', blockSize: 1024 });
  for (let i = 0; i < 200; i++) c.append(BigInt(i + 1), Buffer.from(`line ${i} of a chunk`), []);
  return c.encode();
}

describe('ChunkDecoder', () => {
  it('decodes the same bytes once, and equal bytes in another Buffer apart', () => {
    const sut = new ChunkDecoder(1);
    const bytes = chunkBytes();
    const first = sut.decode(bytes, 'k');
    expect(sut.decode(bytes, 'k')).toBe(first);
    expect(sut.decode(Buffer.from(bytes), 'k')).not.toBe(first);
  });

  it('shares decoded blocks between readers of one chunk, and can go without', () => {
    const sut = new ChunkDecoder(1);
    const bytes = chunkBytes();
    const count = (from: bigint, through: bigint): number => {
      const it = sut.decode(bytes, 'k').iterator(from, through, 'forward');
      let n = 0;
      while (it.next()) n++;
      return n;
    };
    expect(count(1n, 120n)).toBe(119);
    expect(count(100n, 201n)).toBe(101);
    expect(sut.blocks!.hits).toBeGreaterThan(0);
    sut.configure(0);
    expect(sut.blocks).toBeNull();
    expect(count(1n, 201n)).toBe(200);
  });
});
