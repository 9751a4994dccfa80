import { EMPTY_LABELS, type Labels, labelsFromRecord } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemChunk } from './mem-chunk';
import { CHUNK_ENCODINGS } from './options';
import { runTimesOf, type RunTimes } from './run-summary';
import { drain } from './test-helpers';

function metadataFor(ts: bigint, line: string): Labels {
  if ((Number(ts) + line.length) % 3 === 0) return EMPTY_LABELS;
  return labelsFromRecord({ shard: String(Number(ts) % 4), len: String(line.length) });
}

const entryArb = fc.record({
  ts: fc.bigInt({ min: 0n, max: 40n }),
  line: fc.string({ unit: fc.constantFrom('a', 'b', 'é', ' '), maxLength: 6 }),
});

const show = (c: MemChunk, from: bigint, through: bigint, direction: 'forward' | 'backward') =>
  drain(c.iterator(from, through, direction)).map((e) => ({ ...e, sm: [...e.sm] }));

/** A run's times as (offset, line length) pairs by offset: rows may come in any order. */
const timesOf = (t: RunTimes) => {
  const u = t.offsets(0n);
  const o = t.lineOffsets;
  const rows = [...u].map((x, r) => [x, o === null ? -1 : o[r + 1] - o[r]]);
  return {
    rows: rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    names: [...t.metadataNames].sort(),
  };
};

/**
 * What a count from block meta reads of a chunk: each run's figures and times. Those its meta
 * knows (a cut block's side copy tells all of them) are what its entries give.
 */
function counting(c: MemChunk, from: bigint, through: bigint) {
  const summary = c.iterator(from, through, 'forward').summarize?.() ?? null;
  return summary?.runs.map((r) => {
    const loaded = runTimesOf(r.load());
    const lineBytes = loaded.lineOffsets![loaded.count] - loaded.lineOffsets![0];
    expect(r.entries ?? loaded.count).toBe(loaded.count);
    expect(r.lineBytes ?? lineBytes).toBe(lineBytes);
    expect([...(r.metadataNames ?? loaded.metadataNames)].sort()).toEqual(timesOf(loaded).names);
    expect(timesOf(r.times(true))).toEqual(timesOf(loaded));
    const offsets = (t: RunTimes) => [...t.offsets(0n)].sort((a, b) => a - b);
    expect(offsets(r.times(false))).toEqual(offsets(loaded));
    return { ...r, ...timesOf(r.times(true)), times: null, load: null, report: null };
  });
}

/** What the ingester's queries read of a chunk: its entries and the counters of its stats. */
function reading(c: MemChunk, from: bigint, through: bigint, direction: 'forward' | 'backward') {
  const split = c.split(from, through, direction);
  return {
    entries: show(c, from, through, direction),
    counting: counting(c, from, through),
    blocks: split.blocks === null ? null : drain(split.blocks).length,
    head: split.head === null ? null : drain(split.head).length,
    blocksMinTs: split.blocksMinTs,
    blocksMaxTs: split.blocksMaxTs,
    entryCount: c.entryCount,
    uncompressedBytes: c.uncompressedBytes,
    compressedBytes: c.compressedBytes,
    minTimeNs: c.minTimeNs,
    maxTimeNs: c.maxTimeNs,
  };
}

describe('MemChunk.snapshot and fromSnapshot (property)', () => {
  it('rebuild a chunk that reads and counts as the chunk did, whatever is appended later', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(
            fc.array(entryArb, { minLength: 1, maxLength: 40 }),
            fc.array(fc.nat(), { maxLength: 200, size: 'large' }),
          )
          .map(([pool, picks]) => picks.map((i) => pool[i % pool.length])),
        fc.array(entryArb, { maxLength: 30 }),
        fc.constantFrom(...CHUNK_ENCODINGS),
        fc.integer({ min: 1, max: 200 }),
        fc.bigInt({ min: -2n, max: 42n }),
        fc.bigInt({ min: -2n, max: 42n }),
        fc.constantFrom('forward' as const, 'backward' as const),
        fc.boolean(),
        async (entries, later, encoding, blockSize, from, through, direction, settle) => {
          const sut = new MemChunk({ encoding, blockSize });
          for (const e of entries) sut.append(e.ts, Buffer.from(e.line), metadataFor(e.ts, e.line));
          // Some blocks still compressing in the background, or all done.
          if (settle) await new Promise((r) => setTimeout(r, 1));
          const snapshot = sut.snapshot();
          const expected = reading(sut, from, through, direction);
          for (const e of later) sut.append(e.ts, Buffer.from(e.line), metadataFor(e.ts, e.line));
          const copy = MemChunk.fromSnapshot(snapshot);
          expect(reading(copy, from, through, direction)).toEqual(expected);
          // Every run, a block cut here as much as the head, knows its line bytes and metadata
          // names without being read.
          for (const r of counting(copy, from, through) ?? []) {
            expect(r.lineBytes).toBeDefined();
            expect(r.metadataNames).toBeDefined();
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('snapshots an empty chunk and a closed one', () => {
    const empty = MemChunk.fromSnapshot(new MemChunk().snapshot());
    expect(empty.entryCount).toBe(0);
    const closed = new MemChunk({ blockSize: 10 });
    for (let i = 0; i < 20; i++) closed.append(BigInt(i), Buffer.from(`line ${i}`), []);
    closed.close();
    const snapshot = closed.snapshot();
    expect(snapshot.head).toBeNull();
    const copy = MemChunk.fromSnapshot(snapshot);
    expect(copy.compressedBytes).toBe(closed.compressedBytes);
    expect(show(copy, 0n, 100n, 'backward')).toEqual(show(closed, 0n, 100n, 'backward'));
  });
});
