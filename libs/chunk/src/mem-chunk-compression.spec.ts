import { EMPTY_LABELS, labelsFromRecord } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemChunk } from './mem-chunk';
import { CHUNK_ENCODINGS, type ChunkEncoding } from './options';
import { drain } from './test-helpers';

async function compressed(chunk: MemChunk): Promise<void> {
  for (let i = 0; i < 500 && chunk.compressing; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  expect(chunk.compressing).toBe(false);
}

function fill(chunk: MemChunk, n: number, offset = 0): void {
  for (let i = 0; i < n; i++) {
    const sm = i % 3 === 0 ? EMPTY_LABELS : labelsFromRecord({ detected_level: 'info' });
    chunk.append(
      BigInt(offset + i),
      Buffer.from(`GET /items/${offset + i} 200 ${'x'.repeat(i % 50)}`),
      sm,
    );
  }
}

describe('MemChunk background block compression', () => {
  it.each(CHUNK_ENCODINGS)('%s: reads a block while it compresses and after', async (encoding) => {
    const sut = new MemChunk({ encoding, blockSize: 2000, targetSize: 0 });
    fill(sut, 200);
    const expected = drain(sut.iterator(0n, 1000n, 'forward'));
    expect(expected).toHaveLength(200);
    expect(sut.blockCount).toBeGreaterThan(2);
    // Appending a duplicate of an entry of the block just cut is still refused.
    const last = expected[expected.length - 1];
    expect(sut.append(last.ts, Buffer.from(last.line), last.sm)).toBe(false);
    await compressed(sut);
    expect(drain(sut.iterator(0n, 1000n, 'forward'))).toEqual(expected);
  });

  it.each(CHUNK_ENCODINGS)(
    '%s: encodes the same bytes whether compression finished or not',
    async (encoding) => {
      const background = new MemChunk({ encoding, blockSize: 1500 });
      const forced = new MemChunk({ encoding, blockSize: 1500 });
      fill(background, 300);
      fill(forced, 300);
      const forcedBytes = forced.encode();
      await compressed(background);
      const backgroundBytes = background.encode();
      expect(backgroundBytes.equals(forcedBytes)).toBe(true);
      expect(drain(MemChunk.decode(backgroundBytes).iterator(0n, 1000n, 'forward'))).toEqual(
        drain(forced.iterator(0n, 1000n, 'forward')),
      );
    },
  );

  it('answers isFull exactly as if every block were compressed at its cut', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ChunkEncoding>(...CHUNK_ENCODINGS),
        fc.integer({ min: 50, max: 3000 }),
        fc.integer({ min: 100, max: 20_000 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 150 }),
        (encoding, blockSize, targetSize, lengths) => {
          const lazy = new MemChunk({ encoding, blockSize, targetSize });
          const eager = new MemChunk({ encoding, blockSize, targetSize });
          lengths.forEach((len, i) => {
            const line = Buffer.from(`${i}:${'ab'.repeat(len)}`);
            lazy.append(BigInt(i), line, EMPTY_LABELS);
            eager.append(BigInt(i), line, EMPTY_LABELS);
            // Reading compressedBytes finishes every pending block first.
            const eagerCompressed = eager.compressedBytes;
            expect(eager.compressing).toBe(false);
            expect(lazy.isFull()).toBe(eager.isFull());
            expect(lazy.compressedBytes).toBe(eagerCompressed);
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});
