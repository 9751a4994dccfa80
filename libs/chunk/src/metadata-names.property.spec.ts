import type { Labels } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recodeChunk } from './columnar-format';
import type { EntryCursor } from './cursor';
import { MemChunk } from './mem-chunk';
import { SourceMergeCursor } from './source-merge-cursor';

const NAMES = ['detected_level', 'trace.id', 'level', 'pod'] as const;

const metadataArb: fc.Arbitrary<Labels> = fc.array(
  fc.record({ name: fc.constantFrom(...NAMES), value: fc.constantFrom('a', 'b', 'c') }),
  { maxLength: 3 },
);
const entryArb = fc.record({
  ts: fc.bigInt({ min: 0n, max: 80n }),
  line: fc.constantFrom('x', 'level=info', '{"a":1}', ''),
  sm: metadataArb,
});
interface Entry {
  readonly ts: bigint;
  readonly line: string;
  readonly sm: Labels;
}

function chunkOf(entries: readonly Entry[], blockSize: number, format: string): MemChunk {
  const built = new MemChunk({ encoding: 'snappy', blockSize });
  for (const e of entries) built.append(e.ts, Buffer.from(e.line), e.sm);
  // `head`: the last block stays the chunk's head block, as in an ingester.
  if (format === 'head') return built;
  return MemChunk.decode(
    recodeChunk(built.encode(), format === 'columnar' ? 'columnar' : 'blocks'),
  );
}

/** Every entry's metadata names, and the names its cursor offered for it. */
function walk(cursor: EntryCursor): { sm: string[]; names: readonly string[] | undefined }[] {
  const out: { sm: string[]; names: readonly string[] | undefined }[] = [];
  while (cursor.next()) {
    out.push({ sm: cursor.structuredMetadata.map((p) => p.name), names: cursor.metadataNames });
  }
  return out;
}

describe('EntryCursor.metadataNames', () => {
  it('names, when given, every metadata name of the current entry', () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 120 }),
        fc.array(entryArb, { maxLength: 40 }),
        fc.integer({ min: 16, max: 300 }),
        fc.constantFrom('columnar', 'blocks', 'head'),
        fc.constantFrom('forward', 'backward'),
        fc.boolean(),
        (first, second, blockSize, format, dir, transient) => {
          const chunks = [chunkOf(first, blockSize, format)];
          if (second.length > 0) chunks.push(chunkOf(second, blockSize, format));
          const options = transient ? { transientLines: true } : {};
          const cursors = chunks.map((c) => c.iterator(0n, 100n, dir, options));
          const cursor = cursors.length === 1 ? cursors[0] : new SourceMergeCursor(cursors, dir);
          for (const { sm, names } of walk(cursor)) {
            if (names === undefined) continue;
            for (const n of sm) expect(names).toContain(n);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives a columnar block's metadata columns, one array for the whole block", () => {
    const entries: Entry[] = Array.from({ length: 200 }, (_, i) => ({
      ts: BigInt(i),
      line: `line ${i}`,
      sm: i % 3 === 0 ? [] : [{ name: 'detected_level', value: i % 2 === 0 ? 'info' : 'warn' }],
    }));
    const chunk = chunkOf(entries, 1024, 'columnar');
    const seen = walk(chunk.iterator(0n, 1000n, 'forward'));
    expect(seen).toHaveLength(200);
    expect(seen[0].names).toEqual(['detected_level']);
    // The first block's entries share its array: a reader judges it once per block.
    expect(seen[1].names).toBe(seen[0].names);
    expect(new Set(seen.map((s) => s.names)).size).toBeLessThan(20);
  });
});
