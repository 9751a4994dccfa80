import { EMPTY_LABELS } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
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
  needle?: string | string[],
) {
  const it = chunk.iterator(
    from,
    through,
    dir,
    needle === undefined
      ? {}
      : typeof needle === 'string'
        ? { lineContains: Buffer.from(needle) }
        : { lineContainsAny: needle.map((n) => Buffer.from(n)) },
  );
  const out: Seen[] = [];
  while (it.next()) out.push({ ts: it.timestampNs, line: it.line.toString() });
  return { out, scanned: it.scanned };
}

// Short lines over a tiny alphabet, so needles often match, straddle line ends, or sit at edges.
const lineArb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é'), maxLength: 5 });

const unit = fc.constantFrom('a', 'b', 'c', 'é');

/**
 * Over random chunks (live with an unsorted head, or flushed and read back), ranges and both
 * directions: the prefiltered read returns the plain read's entries whose line contains one of
 * the needles, and scans the same lines and bytes (skipped lines count too).
 */
function assertPrefilter(
  needleArb: fc.Arbitrary<string | string[]>,
  numRuns: number,
  lines: fc.Arbitrary<string> = lineArb,
): void {
  fc.assert(
    fc.property(
      fc.array(fc.record({ ts: fc.bigInt({ min: 0n, max: 30n }), line: lines }), {
        maxLength: 120,
      }),
      fc.integer({ min: 1, max: 64 }),
      fc.boolean(),
      needleArb,
      fc.bigInt({ min: -1n, max: 31n }),
      fc.bigInt({ min: -1n, max: 32n }),
      (entries, blockSize, keepHead, needle, from, through) => {
        const built = new MemChunk({ encoding: 'snappy', blockSize });
        for (const e of entries) built.append(e.ts, Buffer.from(e.line), EMPTY_LABELS);
        const chunk = keepHead ? built : MemChunk.decode(built.encode());
        const needles = typeof needle === 'string' ? [needle] : needle;
        for (const dir of ['forward', 'backward'] as const) {
          const plain = drainAll(chunk, from, through, dir);
          const filtered = drainAll(chunk, from, through, dir, needle);
          expect(filtered.out).toEqual(
            plain.out.filter((e) => needles.some((n) => e.line.includes(n))),
          );
          expect(filtered.scanned).toEqual(plain.scanned);
        }
      },
    ),
    { numRuns },
  );
}

describe('MemChunk iterator with lineContains', () => {
  it('returns exactly the entries of the plain iterator whose line contains the needle', () => {
    assertPrefilter(fc.string({ unit, minLength: 1, maxLength: 3 }), 400);
  });

  it('with lineContainsAny, returns the entries whose line contains one of the needles', () => {
    assertPrefilter(
      fc.array(fc.string({ unit, minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
      600,
    );
  });

  it('with lineContainsAny, needles of characters special to regular expressions match as bytes', () => {
    // Several needles are searched together through a regular expression of their bytes.
    const special = fc.constantFrom('.', '*', '|', '(', '[', '\\', '$', '-', '\n', 'a', 'é');
    assertPrefilter(
      fc.array(fc.string({ unit: special, minLength: 1, maxLength: 3 }), {
        minLength: 2,
        maxLength: 3,
      }),
      400,
      fc.string({ unit: special, maxLength: 5 }),
    );
  });

  it('lineContainsAny: a long needle crossing a line end, a short one inside the line', () => {
    const chunk = new MemChunk({ encoding: 'none' });
    const lines = ['xxab', 'cdyy', 'zzz', 'abcd', 'qab'];
    lines.forEach((l, i) => chunk.append(BigInt(i), Buffer.from(l), EMPTY_LABELS));
    chunk.cutBlock();
    for (const dir of ['forward', 'backward'] as const) {
      const { out } = drainAll(chunk, 0n, 10n, dir, ['abcd', 'ab']);
      const want = ['xxab', 'abcd', 'qab'];
      expect(out.map((e) => e.line)).toEqual(dir === 'forward' ? want : [...want].reverse());
    }
  });

  it('in a head block filled out of time order, finds matches row by row, never across lines', () => {
    const chunk = new MemChunk({ encoding: 'none' });
    // Arrival order (the head's row order) is the reverse of time order.
    const lines = ['qab', 'abcd', 'zzz', 'cdyy', 'xxab'];
    lines.forEach((l, i) => chunk.append(BigInt(10 - i), Buffer.from(l), EMPTY_LABELS));
    for (const dir of ['forward', 'backward'] as const) {
      const { out } = drainAll(chunk, 0n, 20n, dir, ['abcd', 'ab']);
      const want = ['xxab', 'abcd', 'qab'];
      expect(out.map((e) => e.line)).toEqual(dir === 'forward' ? want : [...want].reverse());
      const single = drainAll(chunk, 0n, 20n, dir, 'abcdyy');
      expect(single.out).toEqual([]); // "ab" + "cdyy" only meet across two lines
    }
  });

  it('searches an out-of-order head block once, not once per line', () => {
    const chunk = new MemChunk({ encoding: 'none', blockSize: 1 << 20 });
    for (let i = 0; i < 1000; i++) {
      const ts = BigInt(i % 2 === 0 ? i : 2000 - i); // arrival order is not time order
      chunk.append(ts, Buffer.from(`line ${i} ${i === 500 ? 'rare' : 'common'}`), EMPTY_LABELS);
    }
    const searches = vi.spyOn(Buffer.prototype, 'indexOf');
    try {
      for (const dir of ['forward', 'backward'] as const) {
        searches.mockClear();
        const { out } = drainAll(chunk, 0n, 5000n, dir, 'rare');
        expect(out.map((e) => e.line)).toEqual(['line 500 rare']);
        expect(searches.mock.calls.length).toBeLessThanOrEqual(4);
      }
    } finally {
      searches.mockRestore();
    }
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
