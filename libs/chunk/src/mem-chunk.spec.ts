import { EMPTY_LABELS, labelsFromRecord } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { ChunkFormatError, ReadOnlyChunkError } from './errors';
import { recodeChunk } from './columnar-format';
import { MemChunk } from './mem-chunk';
import { CHUNK_ENCODINGS, ChunkOptionsError } from './options';
import { drain } from './test-helpers';

const ALL = [0n, 1n << 62n] as const;

function line(i: number): Buffer {
  return Buffer.from(`level=info msg="request ${i}" path=/api/v1/items/${i % 37} status=200`);
}

describe('MemChunk', () => {
  for (const encoding of CHUNK_ENCODINGS) {
    it(`round-trips entries and metadata through encode/decode with ${encoding}`, () => {
      const sut = new MemChunk({ encoding, blockSize: 2048 });
      const sm = labelsFromRecord({ trace_id: 'abc123', user: 'émile' });
      for (let i = 0; i < 500; i++) {
        expect(
          sut.append(
            1_700_000_000_000_000_000n + BigInt(i) * 1000n,
            line(i),
            i % 3 === 0 ? sm : EMPTY_LABELS,
          ),
        ).toBe(true);
      }
      const bytes = sut.encode();
      expect(sut.blockCount).toBeGreaterThan(5);
      const decoded = MemChunk.decode(bytes);
      expect(decoded.entryCount).toBe(500);
      expect(decoded.blockCount).toBe(sut.blockCount);
      expect(decoded.minTimeNs).toBe(1_700_000_000_000_000_000n);
      expect(decoded.maxTimeNs).toBe(1_700_000_000_000_000_000n + 499_000n);
      expect(decoded.uncompressedBytes).toBe(sut.uncompressedBytes);
      expect(decoded.compressedBytes).toBe(sut.compressedBytes);
      const got = drain(decoded.iterator(...ALL, 'forward'));
      expect(got).toHaveLength(500);
      got.forEach((e, i) => {
        expect(e.ts).toBe(1_700_000_000_000_000_000n + BigInt(i) * 1000n);
        expect(e.line).toBe(line(i).toString());
        expect(e.sm).toEqual(i % 3 === 0 ? sm : []);
      });
      expect(decoded.encode().equals(bytes)).toBe(true);
    });
  }

  for (const format of ['blocks', 'columnar'] as const) {
    it(`checks a block's checksum when the block is first read (checkBlocksOnRead, ${format})`, () => {
      const sut = new MemChunk({ encoding: 'snappy', blockSize: 2048 });
      for (let i = 0; i < 500; i++) sut.append(BigInt(i) * 1000n, line(i), EMPTY_LABELS);
      const bytes = format === 'columnar' ? recodeChunk(sut.encode(), format) : sut.encode();
      // The first block's bytes start right after the 8-byte header.
      const corrupt = Buffer.from(bytes);
      corrupt[8] ^= 0xff;
      expect(() => MemChunk.decode(corrupt)).toThrow(/checksum mismatch/);

      const lazy = MemChunk.decode(corrupt, { checkBlocksOnRead: true });
      expect(lazy.blockCount).toBeGreaterThan(5);
      // The newest entries lie in the last block: the corrupt first one is never read.
      const newest = drain(lazy.iterator(400_000n, 500_000n, 'backward'));
      expect(newest.map((e) => e.line)).toEqual(
        drain(MemChunk.decode(bytes).iterator(400_000n, 500_000n, 'backward')).map((e) => e.line),
      );
      expect(() => drain(lazy.iterator(...ALL, 'forward'))).toThrow(/checksum mismatch/);
      // Still refused on the next read, and re-encoding checks every block first.
      expect(() => drain(lazy.iterator(0n, 1000n, 'forward'))).toThrow(/checksum mismatch/);
      expect(() => lazy.encode()).toThrow(/checksum mismatch/);
      expect(
        drain(MemChunk.decode(bytes, { checkBlocksOnRead: true }).iterator(...ALL, 'forward')),
      ).toHaveLength(500);
    });
  }

  it('compresses repetitive logs with every codec but none', () => {
    for (const encoding of CHUNK_ENCODINGS) {
      const sut = new MemChunk({ encoding });
      for (let i = 0; i < 2000; i++) sut.append(BigInt(i), line(i), EMPTY_LABELS);
      sut.cutBlock();
      const ratio = sut.compressedBytes / sut.uncompressedBytes;
      if (encoding === 'none') expect(ratio).toBeGreaterThan(1);
      else expect(ratio).toBeLessThan(0.5);
    }
  });

  it('returns unordered appends by time, equal timestamps in insertion order', () => {
    const sut = new MemChunk({ blockSize: 1 << 20 });
    sut.append(30n, Buffer.from('c'), EMPTY_LABELS);
    sut.append(10n, Buffer.from('b'), EMPTY_LABELS);
    sut.append(20n, Buffer.from('x'), EMPTY_LABELS);
    sut.append(10n, Buffer.from('a'), EMPTY_LABELS);
    const expected = ['10:b', '10:a', '20:x', '30:c'];
    const show = (c: MemChunk, dir: 'forward' | 'backward') =>
      drain(c.iterator(...ALL, dir)).map((e) => `${e.ts}:${e.line}`);
    expect(show(sut, 'forward')).toEqual(expected);
    expect(show(sut, 'backward')).toEqual([...expected].reverse());
    const decoded = MemChunk.decode(sut.encode());
    expect(show(decoded, 'forward')).toEqual(expected);
    expect(show(decoded, 'backward')).toEqual([...expected].reverse());
  });

  it('merges blocks that overlap in time with the head', () => {
    const sut = new MemChunk({ blockSize: 25 });
    const ts = [50n, 10n, 90n, 30n, 70n, 20n, 80n, 40n, 60n, 0n, 55n, 5n];
    for (const t of ts) sut.append(t, Buffer.from(`line at ${t}`), EMPTY_LABELS);
    expect(sut.blockCount).toBeGreaterThan(2);
    expect(sut.entryCount).toBe(ts.length);
    const sorted = [...ts].sort((a, b) => (a < b ? -1 : 1));
    expect(drain(sut.iterator(...ALL, 'forward')).map((e) => e.ts)).toEqual(sorted);
    expect(drain(sut.iterator(...ALL, 'backward')).map((e) => e.ts)).toEqual(sorted.reverse());
  });

  it('rejects an identical (timestamp, line) in the head or the previous block', () => {
    const sut = new MemChunk({ blockSize: 1 << 20 });
    expect(sut.append(5n, Buffer.from('a'), EMPTY_LABELS)).toBe(true);
    expect(sut.append(5n, Buffer.from('a'), EMPTY_LABELS)).toBe(false);
    expect(sut.append(5n, Buffer.from('b'), EMPTY_LABELS)).toBe(true);
    expect(sut.append(6n, Buffer.from('a'), EMPTY_LABELS)).toBe(true);
    expect(sut.append(5n, Buffer.from('b'), EMPTY_LABELS)).toBe(false);
    sut.cutBlock();
    expect(sut.append(5n, Buffer.from('a'), EMPTY_LABELS)).toBe(false);
    expect(sut.append(6n, Buffer.from('a'), EMPTY_LABELS)).toBe(false);
    expect(sut.append(5n, Buffer.from('c'), EMPTY_LABELS)).toBe(true);
    expect(sut.entryCount).toBe(4);
    expect(drain(sut.iterator(...ALL, 'forward')).map((e) => `${e.ts}:${e.line}`)).toEqual([
      '5:a',
      '5:b',
      '5:c',
      '6:a',
    ]);
  });

  it('dedupes many entries sharing one timestamp and out-of-order repeats', () => {
    const sut = new MemChunk({ blockSize: 1 << 20 });
    for (let i = 0; i < 100; i++) expect(sut.append(7n, line(i), EMPTY_LABELS)).toBe(true);
    for (let i = 99; i >= 0; i--) expect(sut.append(7n, line(i), EMPTY_LABELS)).toBe(false);
    expect(sut.append(3n, line(1), EMPTY_LABELS)).toBe(true);
    expect(sut.append(3n, line(1), EMPTY_LABELS)).toBe(false);
    expect(sut.append(7n, line(100), EMPTY_LABELS)).toBe(true);
    expect(sut.entryCount).toBe(102);
  });

  it('drops duplicates spread over older blocks when iterating', () => {
    const sut = new MemChunk({ blockSize: 1 });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) sut.append(BigInt(i), Buffer.from(`l${i}`), EMPTY_LABELS);
    }
    expect(drain(sut.iterator(...ALL, 'forward')).map((e) => e.line)).toEqual([
      'l0',
      'l1',
      'l2',
      'l3',
      'l4',
    ]);
  });

  it('keeps the first appended copy of a duplicate that reached an older block', () => {
    const sut = new MemChunk({ blockSize: 1 });
    const copy = (n: number) => labelsFromRecord({ copy: String(n) });
    sut.append(5n, Buffer.from('a'), copy(1));
    sut.append(5n, Buffer.from('b'), copy(1));
    sut.append(5n, Buffer.from('c'), copy(1));
    sut.append(5n, Buffer.from('a'), copy(2)); // two blocks later: stored, then dropped on read
    sut.append(5n, Buffer.from('d'), copy(1));
    expect(sut.entryCount).toBe(5);
    const show = (c: MemChunk, dir: 'forward' | 'backward') =>
      drain(c.iterator(...ALL, dir)).map((e) => `${e.line}${e.sm[0].value}`);
    for (const c of [sut, MemChunk.decode(sut.encode())]) {
      expect(show(c, 'forward')).toEqual(['a1', 'b1', 'c1', 'd1']);
      expect(show(c, 'backward')).toEqual(['d1', 'c1', 'b1', 'a1']);
    }
  });

  it('filters by [from, through) in both directions across many blocks', () => {
    const sut = new MemChunk({ blockSize: 256 });
    for (let i = 0; i < 1000; i++) sut.append(BigInt(i * 10), line(i), EMPTY_LABELS);
    expect(sut.blockCount).toBeGreaterThan(50);
    const chunks = [sut, MemChunk.decode(sut.encode())];
    for (const c of chunks) {
      const fwd = drain(c.iterator(1234n, 5670n, 'forward')).map((e) => e.ts);
      expect(fwd[0]).toBe(1240n);
      expect(fwd[fwd.length - 1]).toBe(5660n);
      expect(fwd).toHaveLength(443);
      const bwd = drain(c.iterator(1234n, 5670n, 'backward')).map((e) => e.ts);
      expect(bwd).toEqual([...fwd].reverse());
      expect(drain(c.iterator(1240n, 1250n, 'forward')).map((e) => e.ts)).toEqual([1240n]);
      expect(drain(c.iterator(5000n, 5000n, 'forward'))).toEqual([]);
      expect(drain(c.iterator(6000n, 5000n, 'backward'))).toEqual([]);
      expect(drain(c.iterator(20_000n, 30_000n, 'forward'))).toEqual([]);
    }
  });

  it('keeps structured metadata per entry, including unicode and empty values', () => {
    const sut = new MemChunk({ blockSize: 100 });
    const sets = [
      labelsFromRecord({ trace_id: 't1' }),
      EMPTY_LABELS,
      labelsFromRecord({ a: '', b: 'ünïcødé ✓', trace_id: 't2' }),
      labelsFromRecord({ trace_id: 't1', span: 's' }),
    ];
    sets.forEach((sm, i) => sut.append(BigInt(i), Buffer.from(`x${i}`), sm));
    const expected = sets.map((sm) => [...sm]);
    expect(drain(sut.iterator(...ALL, 'forward')).map((e) => [...e.sm])).toEqual(expected);
    const decoded = MemChunk.decode(sut.encode());
    expect(drain(decoded.iterator(...ALL, 'forward')).map((e) => [...e.sm])).toEqual(expected);
  });

  it('counts structured metadata in the uncompressed size', () => {
    const sut = new MemChunk();
    sut.append(1n, Buffer.from('12345'), labelsFromRecord({ k: 'vv', é: 'x' }));
    expect(sut.uncompressedBytes).toBe(5 + 1 + 2 + 2 + 1);
  });

  it('gives line views that survive later appends and block cuts', () => {
    const sut = new MemChunk({ blockSize: 64 });
    sut.append(1n, Buffer.from('first line'), EMPTY_LABELS);
    const cursor = sut.iterator(...ALL, 'forward');
    expect(cursor.next()).toBe(true);
    const view = cursor.line;
    for (let i = 0; i < 200; i++) sut.append(BigInt(i + 2), line(i), EMPTY_LABELS);
    expect(view.toString()).toBe('first line');
    expect(cursor.next()).toBe(false);
  });

  it('becomes full once compressed blocks plus the head reach targetSize', () => {
    const fill = (encoding: 'none' | 'snappy') => {
      const sut = new MemChunk({ encoding, blockSize: 1000, targetSize: 5000 });
      let i = 0;
      while (!sut.isFull()) {
        sut.append(BigInt(i), line(i), EMPTY_LABELS);
        i++;
        expect(i).toBeLessThan(100_000);
      }
      return { sut, appended: i };
    };
    const plain = fill('none');
    // The head holds < blockSize bytes, so the cut blocks alone are close to the target.
    expect(plain.sut.compressedBytes).toBeGreaterThan(4000);
    expect(plain.sut.compressedBytes).toBeLessThan(5000);
    const compressed = fill('snappy');
    expect(compressed.sut.compressedBytes).toBeLessThan(5000);
    // Compression counts: the snappy chunk takes several times more log lines.
    expect(compressed.appended).toBeGreaterThan(3 * plain.appended);
  });

  it('is full at 10 blocks when there is no target size', () => {
    const sut = new MemChunk({ targetSize: 0, blockSize: 100 });
    let i = 0;
    while (sut.blockCount < 9) sut.append(BigInt(i), line(i++), EMPTY_LABELS);
    expect(sut.isFull()).toBe(false);
    sut.cutBlock();
    sut.append(BigInt(i), line(i), EMPTY_LABELS);
    sut.cutBlock();
    expect(sut.isFull()).toBe(true);
  });

  it('reports 0n times when empty and round-trips an empty chunk', () => {
    const sut = new MemChunk();
    expect(sut.minTimeNs).toBe(0n);
    expect(sut.maxTimeNs).toBe(0n);
    expect(sut.isFull()).toBe(false);
    const decoded = MemChunk.decode(sut.encode());
    expect(decoded.entryCount).toBe(0);
    expect(drain(decoded.iterator(...ALL, 'forward'))).toEqual([]);
  });

  it('handles negative and extreme timestamps', () => {
    const sut = new MemChunk();
    const ts = [-5n, (1n << 63n) - 1n, 0n, -(1n << 63n)];
    for (const t of ts) sut.append(t, Buffer.from('x'), EMPTY_LABELS);
    const decoded = MemChunk.decode(sut.encode());
    expect(
      drain(decoded.iterator(-(1n << 63n), (1n << 63n) - 1n, 'forward')).map((e) => e.ts),
    ).toEqual([-(1n << 63n), -5n, 0n]);
    expect(decoded.maxTimeNs).toBe((1n << 63n) - 1n);
  });

  it('produces identical bytes for identical appends', () => {
    const build = () => {
      const c = new MemChunk({ encoding: 'gzip', blockSize: 300 });
      for (let i = 0; i < 100; i++)
        c.append(BigInt((i * 7919) % 100), line(i), labelsFromRecord({ i: String(i % 4) }));
      return c.encode();
    };
    expect(build().equals(build())).toBe(true);
  });

  it('encodes a snapshot equal to encode() without cutting the head', () => {
    const build = () => {
      const c = new MemChunk({ encoding: 'snappy', blockSize: 600 });
      for (let i = 0; i < 20; i++)
        c.append(BigInt((i * 7919) % 100), line(i), labelsFromRecord({ i: String(i % 4) }));
      return c;
    };
    const sut = build();
    const blocksBefore = sut.blockCount;
    const snapshot = sut.encodeSnapshot();
    expect(snapshot.equals(build().encode())).toBe(true);
    expect(sut.blockCount).toBe(blocksBefore);
    // The head still holds its entries: a repeat is refused, new entries join them.
    expect(sut.append(BigInt((19 * 7919) % 100), line(19), labelsFromRecord({ i: '3' }))).toBe(
      false,
    );
    expect(sut.append(1000n, line(20), EMPTY_LABELS)).toBe(true);
    expect(drain(MemChunk.decode(sut.encodeSnapshot()).iterator(...ALL, 'forward'))).toHaveLength(
      21,
    );
    expect(MemChunk.decode(new MemChunk().encodeSnapshot()).entryCount).toBe(0);
  });

  it('restores a chunk that takes appends, keeping its blocks and its encoding', () => {
    const t0 = 1_700_000_000_000_000_000n;
    const source = new MemChunk({ encoding: 'gzip', blockSize: 600 });
    for (let i = 0; i < 30; i++) source.append(t0 + BigInt(i), line(i), EMPTY_LABELS);
    const bytes = source.encodeSnapshot();

    const sut = MemChunk.restore(bytes, { encoding: 'snappy', blockSize: 600 });
    expect(sut.options.encoding).toBe('gzip');
    expect(sut.blockCount).toBe(MemChunk.decode(bytes).blockCount);
    // A copy of the newest entry is refused; new entries are taken.
    expect(sut.append(t0 + 29n, line(29), EMPTY_LABELS)).toBe(false);
    expect(sut.append(t0 + 30n, line(30), EMPTY_LABELS)).toBe(true);
    const got = drain(MemChunk.decode(sut.encode()).iterator(...ALL, 'forward'));
    expect(got.map((e) => e.line)).toEqual(
      Array.from({ length: 31 }, (_, i) => line(i).toString()),
    );
    expect(MemChunk.restore(new MemChunk().encode()).append(1n, line(0), EMPTY_LABELS)).toBe(true);
  });

  it('restores checkpoint parts into a chunk that takes appends, its open block uncompressed', () => {
    const t0 = 1_700_000_000_000_000_000n;
    const sm = labelsFromRecord({ trace_id: 'abc' });
    const build = () => {
      const c = new MemChunk({ encoding: 'gzip', blockSize: 600 });
      for (let i = 0; i < 33; i++) c.append(t0 + BigInt(i), line(i), i % 2 ? sm : EMPTY_LABELS);
      return c;
    };
    const source = build();
    const blocksBefore = source.blockCount;
    const parts = source.checkpointParts()!;
    expect(parts.blocks).not.toBeNull();
    // Nothing was cut: the source keeps its open block.
    expect(source.blockCount).toBe(blocksBefore);

    const sut = MemChunk.restoreParts(parts, { encoding: 'snappy', blockSize: 600 });
    expect(sut.options.encoding).toBe('gzip');
    expect(sut.entryCount).toBe(33);
    expect(sut.uncompressedBytes).toBe(source.uncompressedBytes);
    const show = (c: MemChunk) =>
      drain(c.iterator(...ALL, 'forward')).map((e) => `${e.ts} ${e.line} ${e.sm.length}`);
    expect(show(sut)).toEqual(show(source));
    // The same copies are refused as by the chunk it was taken from (the open block's and the
    // block cut before it).
    const twin = build();
    // Newest first: a copy taken in does not push the originals out of the checked blocks first.
    const refused = (c: MemChunk) =>
      Array.from({ length: 33 }, (_, i) => 32 - i).filter(
        (i) => !c.append(t0 + BigInt(i), line(i), sm),
      );
    const refusedByTwin = refused(twin);
    expect(refusedByTwin.length).toBeGreaterThan(3);
    expect(refused(sut)).toEqual(refusedByTwin);
    for (let i = 33; i < 60; i++) expect(sut.append(t0 + BigInt(i), line(i), sm)).toBe(true);
    // Reads drop the copies it took in.
    const got = drain(MemChunk.decode(sut.encode()).iterator(...ALL, 'forward'));
    expect(got.map((e) => e.line)).toEqual(
      Array.from({ length: 60 }, (_, i) => line(i).toString()),
    );

    // With no block cut, the writer's encoding; out of order or empty: no parts.
    const small = new MemChunk({ encoding: 'lz4' });
    small.append(t0, line(0), EMPTY_LABELS);
    const restored = MemChunk.restoreParts(small.checkpointParts()!, { encoding: 'snappy' });
    expect(restored.options.encoding).toBe('snappy');
    expect(drain(restored.iterator(...ALL, 'forward'))).toHaveLength(1);
    small.append(t0 - 1n, line(1), EMPTY_LABELS);
    expect(small.checkpointParts()).toBeNull();
    expect(new MemChunk().checkpointParts()).toBeNull();
  });

  it('refuses appends to a decoded chunk, out-of-range timestamps and bad options', () => {
    const decoded = MemChunk.decode(new MemChunk().encode());
    expect(() => decoded.append(1n, Buffer.from('x'), EMPTY_LABELS)).toThrow(ReadOnlyChunkError);
    const chunk = new MemChunk();
    expect(() => chunk.append(1n << 63n, Buffer.from('x'), EMPTY_LABELS)).toThrow(RangeError);
    expect(() => chunk.append(-(1n << 63n) - 1n, Buffer.from('x'), EMPTY_LABELS)).toThrow(
      RangeError,
    );
    expect(chunk.entryCount).toBe(0);
    expect(() => new MemChunk({ encoding: 'brotli' as never })).toThrow(ChunkOptionsError);
    expect(() => new MemChunk({ blockSize: 0 })).toThrow(ChunkOptionsError);
    expect(() => new MemChunk({ targetSize: -1 })).toThrow(ChunkOptionsError);
    expect(() => MemChunk.decode(Buffer.from('not a chunk at all, really'))).toThrow(
      ChunkFormatError,
    );
  });

  it('keeps insertion order for entries equal in time, across blocks and the head', () => {
    const sut = new MemChunk({ blockSize: 3 });
    const lines = ['b', 'a', 'c', 'ab', '', 'zz', 'a0', 'b'];
    for (const l of lines) sut.append(1n, Buffer.from(l), EMPTY_LABELS);
    sut.append(0n, Buffer.from('early'), EMPTY_LABELS);
    expect(sut.blockCount).toBeGreaterThan(1);
    const expected = ['early', 'b', 'a', 'c', 'ab', '', 'zz', 'a0'];
    const show = (c: MemChunk, dir: 'forward' | 'backward') =>
      drain(c.iterator(...ALL, dir)).map((e) => e.line);
    expect(show(sut, 'forward')).toEqual(expected);
    expect(show(sut, 'backward')).toEqual([...expected].reverse());
    const decoded = MemChunk.decode(sut.encode());
    expect(show(decoded, 'forward')).toEqual(expected);
    expect(show(decoded, 'backward')).toEqual([...expected].reverse());
  });

  it('reads chunks written when equal timestamps were stored by line bytes', () => {
    // Written by the previous format rule from appends 2:b, 1:zz, 2:a, 2:c, 3:y, 1:x (encoding
    // none): the same layout, ties stored by line. Readers return them in stored order.
    const old = Buffer.from(
      '4c53434b01000000010000000000000001000000000000000200000000000000020000000000000002' +
        '000000000000000300000000000000010201010101000000000000787a7a616263790001000000010000' +
        '00000000000300000000000000060000000700000008000000430000004300000050d311664b00000001' +
        '000000010000008def02d24c0000003c0000003d1fd2dd4c53434b',
      'hex',
    );
    const chunk = MemChunk.decode(old);
    const expected = ['1:x', '1:zz', '2:a', '2:b', '2:c', '3:y'];
    const show = (dir: 'forward' | 'backward') =>
      drain(chunk.iterator(...ALL, dir)).map((e) => `${e.ts}:${e.line}`);
    expect(show('forward')).toEqual(expected);
    expect(show('backward')).toEqual([...expected].reverse());
    expect(chunk.encode()).toEqual(old);
  });
});

/** Lines `0xxx…`, `1xxx…` of one width, appended 1 ns apart to a chunk. */
class NumberedLines {
  private count = 0;

  constructor(
    private readonly sut: MemChunk,
    private readonly width: number,
    private readonly fill: string,
  ) {}

  text(i: number): Buffer {
    return Buffer.from(`${i}`.padEnd(this.width, this.fill));
  }

  /** Appends while the chunk has `blocks` cut blocks; returns the line buffer of each append. */
  appendWhileBlocks(blocks: number): Buffer[] {
    const used: Buffer[] = [];
    while (this.sut.blockCount === blocks) {
      const i = this.count++;
      expect(
        this.sut.append(1_700_000_000_000_000_000n + BigInt(i), this.text(i), EMPTY_LABELS),
      ).toBe(true);
      used.push(this.sut.lastLineBuffer);
    }
    return used;
  }

  /** Every line appended so far, as text. */
  all(): string[] {
    return Array.from({ length: this.count }, (_, i) => this.text(i).toString());
  }
}

describe('MemChunk buffer reuse', () => {
  it('keeps what a reader saw unchanged while later appends reuse the head block', () => {
    const sut = new MemChunk({ blockSize: 1024 });
    const t0 = 1_700_000_000_000_000_000n;
    let n = 0;
    const append = (count: number): void => {
      for (let i = 0; i < count; i++, n++) sut.append(t0 + BigInt(n), line(n), EMPTY_LABELS);
    };
    append(5);
    const early = sut.iterator(...ALL, 'forward');
    append(200); // several block cuts; each empties a head block for reuse
    const seenEarly = drain(early);
    expect(seenEarly.map((e) => e.line)).toEqual([0, 1, 2, 3, 4].map((i) => line(i).toString()));
    const all = drain(sut.iterator(...ALL, 'forward'));
    expect(all.map((e) => e.line)).toEqual(
      Array.from({ length: 205 }, (_, i) => line(i).toString()),
    );
  });

  it('fills a block in line pages of at most 16 KiB, never copied into a bigger buffer', () => {
    const sut = new MemChunk({ blockSize: 64 * 1024, encoding: 'snappy' });
    const lines = new NumberedLines(sut, 200, 'x');
    // Up to and including the append that makes the chunk cut its first block.
    const pages = new Set(lines.appendWhileBlocks(0));
    expect(pages.size).toBeGreaterThan(4);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(16 * 1024);
    expect(drain(sut.iterator(...ALL, 'forward')).map((e) => e.line)).toEqual(lines.all());
  });

  it('fills the next block in the pages of the block just cut when no reader saw them', () => {
    const sut = new MemChunk({ blockSize: 16 * 1024 });
    const lines = new NumberedLines(sut, 100, 'y');
    const firstPages = new Set(lines.appendWhileBlocks(0));
    for (const page of lines.appendWhileBlocks(1)) expect(firstPages.has(page)).toBe(true);
    expect(drain(sut.iterator(...ALL, 'forward')).map((e) => e.line)).toEqual(lines.all());
  });

  it('rejects a copy of a line stored in an earlier page, out of order', () => {
    const sut = new MemChunk({ blockSize: 1024 * 1024 });
    const t0 = 1_700_000_000_000_000_000n;
    const text = (i: number): Buffer => Buffer.from(`${i}`.padEnd(300, 'z'));
    for (let i = 0; i < 200; i++) sut.append(t0 + BigInt(2 * i), text(i), EMPTY_LABELS);
    expect(sut.blockCount).toBe(0);
    // Rows 3 and 10 lie in the first pages; the head now appends to a later one.
    expect(sut.append(t0 + 6n, text(3), EMPTY_LABELS)).toBe(false);
    expect(sut.append(t0 + 20n, text(10), EMPTY_LABELS)).toBe(false);
    expect(sut.append(t0 + 20n, text(11), EMPTY_LABELS)).toBe(true);
    expect(sut.append(t0 + 21n, text(10), EMPTY_LABELS)).toBe(true);
    expect(drain(sut.iterator(...ALL, 'forward'))).toHaveLength(202);
  });

  it("keeps a reader's view of lines in several pages while appends go on", () => {
    const sut = new MemChunk({ blockSize: 64 * 1024 });
    const t0 = 1_700_000_000_000_000_000n;
    const text = (i: number): Buffer => Buffer.from(`${i}`.padEnd(250, 'w'));
    for (let i = 0; i < 100; i++) sut.append(t0 + BigInt(i), text(i), EMPTY_LABELS);
    const early = sut.iterator(...ALL, 'backward');
    for (let i = 100; i < 1000; i++) sut.append(t0 + BigInt(i), text(i), EMPTY_LABELS);
    expect(sut.blockCount).toBeGreaterThan(2);
    const seen = drain(early).map((e) => e.line);
    expect(seen).toEqual(Array.from({ length: 100 }, (_, k) => text(99 - k).toString()));
    const all = drain(sut.iterator(...ALL, 'forward')).map((e) => e.line);
    expect(all).toEqual(Array.from({ length: 1000 }, (_, k) => text(k).toString()));
  });

  it('still rejects a duplicate of an entry in the block just cut', () => {
    const sut = new MemChunk({ blockSize: 512 });
    const t0 = 1_700_000_000_000_000_000n;
    for (let i = 0; i < 50; i++) sut.append(t0 + BigInt(i), line(i), EMPTY_LABELS);
    expect(sut.blockCount).toBeGreaterThan(2);
    expect(sut.append(t0 + 49n, line(49), EMPTY_LABELS)).toBe(false);
    expect(sut.append(t0 + 50n, line(50), EMPTY_LABELS)).toBe(true);
  });
});

describe('MemChunk iterator over overlapping blocks', () => {
  // In time order but for one late entry, cut into the newest block, which then overlaps all.
  function lateEntryChunk(): MemChunk {
    const chunk = new MemChunk({ encoding: 'snappy', blockSize: 64 });
    for (let i = 10; i < 100; i++) {
      chunk.append(BigInt(i), Buffer.from(`line ${i}`), EMPTY_LABELS);
      if (i === 95) chunk.append(5n, Buffer.from('late line'), EMPTY_LABELS);
    }
    return MemChunk.decode(chunk.encode());
  }

  it('loads only the blocks a merge reaches, in either direction', () => {
    for (const dir of ['backward', 'forward'] as const) {
      const it = lateEntryChunk().iterator(0n, 1000n, dir);
      const got: string[] = [];
      for (let k = 0; k < 3 && it.next(); k++) got.push(it.line.toString());
      expect(got).toEqual(
        dir === 'backward'
          ? ['line 99', 'line 98', 'line 97']
          : ['late line', 'line 10', 'line 11'],
      );
      // Backward: the newest block alone; forward: the oldest block and the late entry's.
      expect(it.scanned.lines).toBeLessThan(30);
    }
  });

  it('still returns every entry once, in order', () => {
    const it = lateEntryChunk().iterator(0n, 1000n, 'forward');
    const ts: bigint[] = [];
    while (it.next()) ts.push(it.timestampNs);
    expect(ts).toEqual([5n, ...Array.from({ length: 90 }, (_, i) => BigInt(i + 10))]);
    expect(it.scanned.lines).toBe(91);
  });
});
