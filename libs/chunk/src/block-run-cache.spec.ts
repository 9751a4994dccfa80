import { EMPTY_LABELS, labelsFromRecord } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { BlockRunCache } from './block-run-cache';
import { decodeColumnarBlock } from './columnar-block';
import { decodeColumnarChunk, recodeChunk } from './columnar-format';
import { MemChunk } from './mem-chunk';
import { drain } from './test-helpers';

const T0 = 1_700_000_000_000_000_000n;

/** A chunk of `n` entries 1 s apart in blocks of about 2 KiB, every third with metadata. */
function chunkBytes(n: number, seed = 0): Buffer {
  const c = new MemChunk({ encoding: 'snappy', blockSize: 2048 });
  const sm = labelsFromRecord({ trace_id: `t${seed}` });
  for (let i = 0; i < n; i++) {
    const line = Buffer.from(`level=info msg="request ${i + seed}" path=/items/${i % 37}`);
    c.append(T0 + BigInt(i) * 1_000_000_000n, line, i % 3 === 0 ? sm : EMPTY_LABELS);
  }
  return c.encode();
}

const at = (s: number): bigint => T0 + BigInt(s) * 1_000_000_000n;

describe('BlockRunCache', () => {
  it('decodes a block once for the splits that read it, with the same entries', () => {
    const bytes = chunkBytes(600);
    const cache = new BlockRunCache(1 << 20);
    const cached = MemChunk.decode(bytes, { blockCache: cache, cacheKey: 'c' });
    const plain = MemChunk.decode(bytes);
    expect(cached.blockCount).toBeGreaterThan(4);
    // Three splits whose boundaries fall inside blocks, read in turn as a split query does.
    const splits: [bigint, bigint][] = [
      [at(0), at(250)],
      [at(250), at(430)],
      [at(430), at(600)],
    ];
    for (const [from, through] of splits) {
      expect(drain(cached.iterator(from, through, 'forward'))).toEqual(
        drain(plain.iterator(from, through, 'forward')),
      );
    }
    expect(cache.misses).toBe(cached.blockCount);
    expect(cache.hits).toBe(2);
    // Any range, any direction, from the cache or not: the chunk's own entries.
    for (const [from, through] of [...splits, [at(0), at(600)] as [bigint, bigint]]) {
      expect(drain(cached.iterator(from, through, 'backward'))).toEqual(
        drain(plain.iterator(from, through, 'backward')),
      );
    }
  });

  it('keeps only blocks that reach outside the range read', () => {
    const cache = new BlockRunCache(1 << 20);
    const c = MemChunk.decode(chunkBytes(600), { blockCache: cache, cacheKey: 'c' });
    drain(c.iterator(at(0), at(600), 'forward'));
    expect(cache.size).toBe(0);
    drain(c.iterator(at(1), at(599), 'forward'));
    expect(cache.size).toBe(2);
  });

  it('drops the least recently read blocks to stay within its bytes', () => {
    const cache = new BlockRunCache(12 * 1024);
    const chunks = [1, 2, 3].map((seed) =>
      MemChunk.decode(chunkBytes(300, seed), { blockCache: cache, cacheKey: `c${seed}` }),
    );
    // Each read keeps its chunk's first and last blocks (they straddle the range).
    for (const c of chunks) drain(c.iterator(at(1), at(299), 'forward'));
    expect(cache.bytes).toBeLessThanOrEqual(12 * 1024);
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.size).toBeLessThan(6);
    const misses = cache.misses;
    // The last chunk's last block is the most recent: still there.
    drain(chunks[2].iterator(at(299), at(300), 'forward'));
    expect(cache.misses).toBe(misses);
    // The first chunk's first block was dropped: decoded again.
    drain(chunks[0].iterator(at(0), at(1), 'forward'));
    expect(cache.misses).toBe(misses + 1);
  });

  it('finds the blocks of the same key in another decode of the bytes, not without a key', () => {
    const cache = new BlockRunCache(1 << 20);
    const bytes = chunkBytes(600);
    drain(
      MemChunk.decode(bytes, { blockCache: cache, cacheKey: 'c' }).iterator(
        at(1),
        at(599),
        'forward',
      ),
    );
    const misses = cache.misses;
    const again = MemChunk.decode(Buffer.from(bytes), { blockCache: cache, cacheKey: 'c' });
    drain(again.iterator(at(0), at(1), 'forward'));
    expect(cache.misses).toBe(misses);
    drain(MemChunk.decode(bytes, { blockCache: cache }).iterator(at(1), at(599), 'forward'));
    expect(cache.misses).toBe(misses);
    expect(cache.hits).toBe(1);
  });

  it('does not keep a block larger than the whole cache', () => {
    const cache = new BlockRunCache(100);
    const c = MemChunk.decode(chunkBytes(50), { blockCache: cache, cacheKey: 'c' });
    expect(drain(c.iterator(at(1), at(49), 'forward'))).toHaveLength(48);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('sizes a run by its metadata bound, never decoding the metadata to size it', () => {
    const run = {
      count: 2,
      ts: new BigInt64Array(2),
      lineOffsets: new Uint32Array([0, 3, 6]),
      lines: Buffer.from('abcdef'),
      get smOffsets(): Uint32Array {
        throw new Error('metadata decoded');
      },
      get smIds(): Uint32Array {
        throw new Error('metadata decoded');
      },
      symbols: [],
      order: null,
      metadataBytes: () => 40,
    };
    const cache = new BlockRunCache(1 << 20);
    expect(cache.load('k', () => run, 2)).toBe(run);
    expect(cache.bytes).toBe(6 + 16 + 12 + 40);
  });

  it("bounds a columnar block's metadata before it is read, and gives its size after", () => {
    const contents = decodeColumnarChunk(recodeChunk(chunkBytes(600), 'columnar'));
    const b = contents.blocks[0];
    const { strings, byteLengths } = contents.symbols;
    const run = decodeColumnarBlock(b.data, b.layout, b, strings, byteLengths);
    const bound = run.metadataBytes!();
    expect(bound).toBe(4 * (run.count + 1) + 4 * 2 * run.count);
    const exact = run.smOffsets.byteLength + run.smIds.byteLength;
    expect(run.metadataBytes!()).toBe(exact);
    expect(exact).toBeLessThanOrEqual(bound);
  });
});
