import { EMPTY_LABELS } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemChunk } from './mem-chunk';

interface Seen {
  ts: bigint;
  line: string;
}

function drainAll(
  chunk: MemChunk,
  from: bigint,
  through: bigint,
  dir: 'forward' | 'backward',
  needle?: string,
) {
  const it = chunk.iterator(
    from,
    through,
    dir,
    needle === undefined ? {} : { lineContains: Buffer.from(needle) },
  );
  const out: Seen[] = [];
  while (it.next()) out.push({ ts: it.timestampNs, line: it.line.toString() });
  return { out, scanned: it.scanned };
}

// Short lines over a tiny alphabet, so needles often match, straddle line ends, or sit at edges.
const lineArb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é'), maxLength: 5 });

describe('MemChunk iterator with lineContains', () => {
  it('returns exactly the entries of the plain iterator whose line contains the needle', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ts: fc.bigInt({ min: 0n, max: 30n }), line: lineArb }), {
          maxLength: 120,
        }),
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é'), minLength: 1, maxLength: 3 }),
        fc.bigInt({ min: -1n, max: 31n }),
        fc.bigInt({ min: -1n, max: 32n }),
        (entries, blockSize, keepHead, needle, from, through) => {
          const built = new MemChunk({ encoding: 'snappy', blockSize });
          for (const e of entries) built.append(e.ts, Buffer.from(e.line), EMPTY_LABELS);
          // Either the live chunk with its unsorted head, or the flushed chunk read back.
          const chunk = keepHead ? built : MemChunk.decode(built.encode());
          for (const dir of ['forward', 'backward'] as const) {
            const plain = drainAll(chunk, from, through, dir);
            const filtered = drainAll(chunk, from, through, dir, needle);
            expect(filtered.out).toEqual(plain.out.filter((e) => e.line.includes(needle)));
            // Scanning counts every line in range, whether or not the needle skipped it.
            expect(filtered.scanned).toEqual(plain.scanned);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('counts the lines and bytes of the query range it scanned', () => {
    const chunk = new MemChunk({ encoding: 'none' });
    for (let i = 0; i < 10; i++) chunk.append(BigInt(i), Buffer.from(`line ${i}`), EMPTY_LABELS);
    chunk.cutBlock();
    const { out, scanned } = drainAll(chunk, 2n, 5n, 'forward', 'line 4');
    expect(out).toEqual([{ ts: 4n, line: 'line 4' }]);
    expect(scanned).toEqual({ lines: 3, bytes: 18 });
  });
});
