import { EMPTY_LABELS, type Labels, labelsFromRecord } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemChunk } from './mem-chunk';
import { CHUNK_ENCODINGS } from './options';
import { drain, insertionOrder } from './test-helpers';

/** Metadata derived from the entry, so duplicates agree on it and the expectation is exact. */
function metadataFor(ts: bigint, line: string): Labels {
  if ((Number(ts) + line.length) % 3 === 0) return EMPTY_LABELS;
  return labelsFromRecord({ shard: String(Number(ts) % 4), len: String(line.length) });
}

const entryArb = fc.record({
  ts: fc.bigInt({ min: 0n, max: 40n }),
  line: fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\n', ' '), maxLength: 6 }),
});

describe('MemChunk (property)', () => {
  it('iterates the distinct entries by time, equal timestamps in first-append order, with or without the newest-timestamp hint', () => {
    fc.assert(
      fc.property(
        // A pool of entries and a random sequence of picks from it: repeats are common.
        fc
          .tuple(
            fc.array(entryArb, { minLength: 1, maxLength: 40 }),
            fc.array(fc.nat(), { maxLength: 200, size: 'large' }),
          )
          .map(([pool, picks]) => picks.map((i) => pool[i % pool.length])),
        fc.constantFrom(...CHUNK_ENCODINGS),
        fc.integer({ min: 1, max: 200 }),
        fc.bigInt({ min: -2n, max: 42n }),
        fc.bigInt({ min: -2n, max: 42n }),
        fc.constantFrom('forward' as const, 'backward' as const),
        (entries, encoding, blockSize, from, through, direction) => {
          const sut = new MemChunk({ encoding, blockSize });
          // Model of the append-time dedupe: keys in the head and in the last cut block.
          let headKeys = new Set<string>();
          let previousKeys = new Set<string>();
          let accepted = 0;
          let newest = -1n;
          for (const e of entries) {
            const key = `${e.ts}|${e.line}`;
            const blocksBefore = sut.blockCount;
            // Promised whenever true, as a stream that tracks its newest timestamp does.
            const aboveAll = accepted > 0 && e.ts > newest;
            const ok = sut.append(e.ts, Buffer.from(e.line), metadataFor(e.ts, e.line), aboveAll);
            expect(ok).toBe(!headKeys.has(key) && !previousKeys.has(key));
            if (ok) {
              accepted++;
              headKeys.add(key);
              if (e.ts > newest) newest = e.ts;
            }
            if (sut.blockCount !== blocksBefore) {
              previousKeys = headKeys;
              headKeys = new Set();
            }
          }
          expect(sut.entryCount).toBe(accepted);

          const distinct = insertionOrder(entries).filter((e) => e.ts >= from && e.ts < through);
          if (direction === 'backward') distinct.reverse();
          const expected = distinct.map((e) => ({ ...e, sm: [...metadataFor(e.ts, e.line)] }));
          const show = (c: MemChunk) =>
            drain(c.iterator(from, through, direction)).map((e) => ({ ...e, sm: [...e.sm] }));

          expect(show(sut)).toEqual(expected);
          expect(show(MemChunk.decode(sut.encode()))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
