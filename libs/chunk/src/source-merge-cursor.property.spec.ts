import { EMPTY_LABELS, labelsFromRecord, type Labels } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntryCursor } from './cursor';
import { MemChunk } from './mem-chunk';
import { SourceMergeCursor } from './source-merge-cursor';
import { drain, insertionOrder } from './test-helpers';

/** Metadata derived from the entry, so every copy agrees on it. */
function metadataFor(ts: bigint, line: string): Labels {
  return line.length % 2 === 0 ? EMPTY_LABELS : labelsFromRecord({ at: String(ts) });
}

class CountingMerge extends SourceMergeCursor {
  duplicates = 0;
  protected override duplicate(): void {
    this.duplicates++;
  }
}

interface Append {
  ts: bigint;
  line: string;
}

// Few timestamps and a tiny alphabet: many entries share a timestamp, and repeats are common.
const appendsArb = fc
  .tuple(
    fc.array(
      fc.record({
        ts: fc.bigInt({ min: 0n, max: 12n }),
        line: fc.string({ unit: fc.constantFrom('a', 'b', 'é'), maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 30 },
    ),
    fc.array(fc.nat(), { maxLength: 150, size: 'large' }),
  )
  .map(([pool, picks]) => picks.map((i) => pool[i % pool.length]));

function chunkOf(appends: readonly Append[], blockSize: number, encoded: boolean): MemChunk {
  const chunk = new MemChunk({ encoding: 'snappy', blockSize });
  for (const e of appends) chunk.append(e.ts, Buffer.from(e.line), metadataFor(e.ts, e.line));
  return encoded ? MemChunk.decode(chunk.encode()) : chunk;
}

/**
 * Replays entries as a source that fetches them as they are read: it may start only at
 * `startNs` (its first entry), and runs dry (`wait`) before some new timestamps.
 */
class LateCursor implements EntryCursor {
  readonly startNs: bigint | undefined;
  private at = -1;
  private dry = false;

  constructor(
    private readonly rows: readonly { ts: bigint; line: string; sm: Labels }[],
    private readonly pauses: Set<number>,
    withStart: boolean,
  ) {
    this.startNs = withStart && rows.length > 0 ? rows[0].ts : undefined;
  }

  get timestampNs(): bigint {
    return this.rows[this.at].ts;
  }

  get line(): Buffer {
    return Buffer.from(this.rows[this.at].line);
  }

  /** The line between other bytes, as a block holds it. */
  get lineSource(): Buffer {
    return Buffer.from(`<<${this.rows[this.at].line}>>`);
  }

  get lineStart(): number {
    return 2;
  }

  get lineEnd(): number {
    return 2 + Buffer.byteLength(this.rows[this.at].line);
  }

  get structuredMetadata(): Labels {
    return this.rows[this.at].sm;
  }

  next(): boolean {
    const k = this.at + 1;
    this.dry = this.pauses.delete(k);
    if (this.dry || k >= this.rows.length) return false;
    this.at = k;
    return true;
  }

  wait(): Promise<void> | null {
    return this.dry ? Promise.resolve() : null;
  }
}

async function drainWaiting(c: EntryCursor) {
  const out: { ts: bigint; line: string; sm: Labels[number][] }[] = [];
  for (;;) {
    if (c.next()) {
      const line = c.line.toString();
      // The line in place is the same line.
      expect(c.lineSource.toString('utf8', c.lineStart, c.lineEnd)).toBe(line);
      out.push({ ts: c.timestampNs, line, sm: [...c.structuredMetadata] });
      continue;
    }
    const more = c.wait?.();
    if (!more) return out;
    await more;
  }
}

const plain = (c: EntryCursor) => drain(c).map((e) => ({ ts: e.ts, line: e.line, sm: [...e.sm] }));

describe('SourceMergeCursor (property)', () => {
  it('merges overlapping copies of one stream into insertion order, exactly reversed backward', () => {
    fc.assert(
      fc.property(
        appendsArb,
        fc.nat(),
        fc.nat(),
        fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 })),
        fc.tuple(fc.boolean(), fc.boolean()),
        fc.constantFrom('none', 'first', 'last'),
        fc.bigInt({ min: -1n, max: 13n }),
        fc.bigInt({ min: -1n, max: 14n }),
        fc.constantFrom('forward' as const, 'backward' as const),
        (appends, a, b, blockSizes, encoded, replica, from, through, direction) => {
          // Source 1 saw appends [0, k), source 2 saw [j, n) with j <= k: they overlap, as a
          // flushed chunk and the ingester's memory do; a replica saw everything.
          const n = appends.length;
          const j = a % (n + 1);
          const k = j + (b % (n - j + 1));
          const chunks = [
            chunkOf(appends.slice(0, k), blockSizes[0], encoded[0]),
            chunkOf(appends.slice(j), blockSizes[1], encoded[1]),
          ];
          if (replica === 'first') chunks.unshift(chunkOf(appends, blockSizes[1], encoded[0]));
          if (replica === 'last') chunks.push(chunkOf(appends, blockSizes[0], encoded[1]));

          const expected = insertionOrder(appends)
            .filter((e) => e.ts >= from && e.ts < through)
            .map((e) => ({ ts: e.ts, line: e.line, sm: [...metadataFor(e.ts, e.line)] }));
          if (direction === 'backward') expected.reverse();
          const sut = new CountingMerge(
            chunks.map((c) => c.iterator(from, through, direction)),
            direction,
          );
          expect(plain(sut)).toEqual(expected);
          let total = 0;
          for (const c of chunks) total += drain(c.iterator(from, through, direction)).length;
          expect(sut.duplicates).toBe(total - expected.length);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the same entries when sources start late and wait before new timestamps', async () => {
    await fc.assert(
      fc.asyncProperty(
        appendsArb,
        fc.nat(),
        fc.nat(),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.constantFrom('forward' as const, 'backward' as const),
        async (appends, a, b, late, pausePicks, direction) => {
          const n = appends.length;
          const j = a % (n + 1);
          const k = j + (b % (n - j + 1));
          const parts = [appends.slice(0, k), appends.slice(j), appends.slice(j, k)];
          const cursors = () =>
            parts.map((p) => chunkOf(p, 16, false).iterator(0n, 13n, direction));
          const expected = plain(new CountingMerge(cursors(), direction));
          const lateCursors = cursors().map((c, i) => {
            const rows = drain(c).map((e) => ({ ts: e.ts, line: e.line, sm: e.sm }));
            // Only before an entry at a new timestamp, as the cursor contract says.
            const boundaries = rows
              .map((r, x) => x)
              .filter((x) => x === 0 || rows[x].ts !== rows[x - 1].ts);
            const pauses = new Set(
              pausePicks.map((p) => boundaries[p % Math.max(1, boundaries.length)] ?? 0),
            );
            return new LateCursor(rows, pauses, late[i]);
          });
          const sut = new CountingMerge(lateCursors, direction);
          expect(await drainWaiting(sut)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
