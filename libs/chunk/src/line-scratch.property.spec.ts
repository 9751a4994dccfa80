import { EMPTY_LABELS } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recodeChunk } from './columnar-format';
import type { CursorOptions } from './cursor';
import { MemChunk } from './mem-chunk';
import { SourceMergeCursor } from './source-merge-cursor';

interface Seen {
  ts: bigint;
  line: string;
  sm: string;
}

/** Every entry as the reader sees it right after `next()` (lines copied before the next call). */
function drain(
  chunks: readonly MemChunk[],
  from: bigint,
  through: bigint,
  dir: 'forward' | 'backward',
  options: CursorOptions,
): Seen[] {
  const cursors = chunks.map((c) => c.iterator(from, through, dir, options));
  const it = cursors.length === 1 ? cursors[0] : new SourceMergeCursor(cursors, dir);
  const out: Seen[] = [];
  while (it.next()) {
    const line = it.line.toString();
    const inPlace = it.lineSource.toString('utf8', it.lineStart, it.lineEnd);
    expect(inPlace).toEqual(line);
    out.push({ ts: it.timestampNs, line, sm: JSON.stringify(it.structuredMetadata) });
  }
  return out;
}

const lineArb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é'), maxLength: 40 });
const entryArb = fc.record({
  ts: fc.bigInt({ min: 0n, max: 60n }),
  line: lineArb,
  level: fc.constantFrom(undefined, 'info', 'error'),
});

type Entries = readonly { ts: bigint; line: string; level: string | undefined }[];

function built(entries: Entries, blockSize: number, encoding: 'snappy' | 'zstd'): MemChunk {
  const chunk = new MemChunk({ encoding, blockSize });
  for (const e of entries) {
    const sm = e.level === undefined ? EMPTY_LABELS : [{ name: 'level', value: e.level }];
    chunk.append(e.ts, Buffer.from(e.line), sm);
  }
  return chunk;
}

function columnar(entries: Entries, blockSize: number): MemChunk {
  return MemChunk.decode(recodeChunk(built(entries, blockSize, 'snappy').encode(), 'columnar'));
}

/**
 * The chunks whose transient reads use scratch buffers: flushed columnar ones (their lines),
 * and zstd row-format ones (their whole payloads), as an ingester holds them and decoded.
 */
const KINDS = {
  columnar,
  'zstd rows in memory': (entries: Entries, blockSize: number) => built(entries, blockSize, 'zstd'),
  'zstd rows decoded': (entries: Entries, blockSize: number) =>
    MemChunk.decode(built(entries, blockSize, 'zstd').encode()),
};
const kindArb = fc.constantFrom(...(Object.keys(KINDS) as (keyof typeof KINDS)[]));

describe('transientLines (columnar lines and zstd row payloads in reused scratch buffers)', () => {
  it('reads exactly the entries, lines and metadata of a plain read', () => {
    fc.assert(
      fc.property(
        // Two chunks of one stream: blocks overlap in time (heap merges) and chunks merge.
        fc.array(entryArb, { maxLength: 150 }),
        fc.array(entryArb, { maxLength: 60 }),
        fc.integer({ min: 16, max: 400 }),
        fc.constantFrom(undefined, 'a', 'bc', 'éa'),
        fc.bigInt({ min: -1n, max: 61n }),
        fc.bigInt({ min: -1n, max: 62n }),
        kindArb,
        (first, second, blockSize, needle, from, through, kind) => {
          const chunkOf = KINDS[kind];
          const chunks = [chunkOf(first, blockSize)];
          if (second.length > 0) chunks.push(chunkOf(second, blockSize));
          const prefilter: CursorOptions =
            needle === undefined ? {} : { lineContains: Buffer.from(needle) };
          for (const dir of ['forward', 'backward'] as const) {
            const plain = drain(chunks, from, through, dir, prefilter);
            const scratch = drain(chunks, from, through, dir, {
              ...prefilter,
              transientLines: true,
            });
            expect(scratch).toEqual(plain);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('two cursors read at once, line by line, see their own lines', () => {
    const a = columnar(
      Array.from({ length: 400 }, (_, i) => ({ ts: BigInt(i), line: `a-${i}`, level: undefined })),
      64,
    );
    const b = columnar(
      Array.from({ length: 400 }, (_, i) => ({ ts: BigInt(i), line: `b-${i}`, level: undefined })),
      64,
    );
    const ca = a.iterator(0n, 1000n, 'forward', { transientLines: true });
    const cb = b.iterator(0n, 1000n, 'backward', { transientLines: true });
    for (let i = 0; i < 400; i++) {
      expect(ca.next() && cb.next()).toBe(true);
      expect(ca.line.toString()).toBe(`a-${i}`);
      expect(cb.line.toString()).toBe(`b-${399 - i}`);
    }
    expect(ca.next() || cb.next()).toBe(false);
  });

  it("keeps each stream's line while other streams' cursors move on, as a log query merges them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(entryArb, { minLength: 1, maxLength: 120 }), {
          minLength: 2,
          maxLength: 6,
        }),
        fc.integer({ min: 16, max: 300 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 400 }),
        fc.constantFrom('forward', 'backward'),
        kindArb,
        (streams, blockSize, turns, dir, kind) => {
          const chunks = streams.map((entries) => KINDS[kind](entries, blockSize));
          const plain = chunks.map((c) => drain([c], -1n, 61n, dir, {}));
          const cursors = chunks.map((c) => c.iterator(-1n, 61n, dir, { transientLines: true }));
          // Each cursor's current line, held as the view the cursor gave (no copy).
          const held: (Buffer | null)[] = cursors.map((c) => (c.next() ? c.line : null));
          const read = cursors.map(() => 0);
          for (const turn of turns) {
            const k = turn % cursors.length;
            const view = held[k];
            if (view === null) continue;
            // Every line still held, checked after another cursor moved (and took a buffer).
            held.forEach((h, j) => {
              if (h !== null) expect(h.toString()).toBe(plain[j][read[j]].line);
            });
            expect(view.toString()).toBe(plain[k][read[k]].line);
            read[k]++;
            held[k] = cursors[k].next() ? cursors[k].line : null;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
