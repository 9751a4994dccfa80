import type { Labels } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockMayHoldMetadata } from './block-prune';
import { decodeColumnarBlock } from './columnar-block';
import { decodeColumnarChunk, recodeChunk } from './columnar-format';
import { MemChunk } from './mem-chunk';
import { drain } from './test-helpers';

const END = 2n ** 63n - 1n;

/** LogQL's normalization of a structured-metadata name (libs/logql's normalizeMetadataName). */
function offeredName(name: string): string {
  if (name.length === 0) return name;
  const out = /[^\p{L}\p{Nd}_]/u.test(name) ? name.replace(/[^\p{L}\p{Nd}]/gu, '_') : name;
  if (/^\p{Nd}/u.test(out)) return 'key_' + out;
  if (out.startsWith('_') && !out.startsWith('__')) return 'key' + out;
  return out;
}

interface Append {
  ts: bigint;
  line: string;
  sm: Labels;
}

// Names offered as themselves and others LogQL renames to them (`trace.id` → `trace_id`).
const NAMES = ['trace_id', 'trace.id', 'level', 'detected_level', '1x', 'key_1x', '_k', 'key_k'];
const lowValue = fc.constantFrom('info', 'warn', 'error');
const highValue = fc.integer({ min: 0, max: 400 }).map((i) => `t${i}`);

/** Per chunk a list of names; every entry has all of them, none, or (rarely) a name twice. */
function smArb(names: readonly string[]): fc.Arbitrary<Labels> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    {
      weight: 8,
      arbitrary: fc.tuple(
        ...names.map((name) => fc.oneof(lowValue, highValue).map((value) => ({ name, value }))),
      ),
    },
    // A name twice on one entry: that block keeps its metadata in the pairs column.
    {
      weight: 1,
      arbitrary: fc.tuple(highValue, highValue).map(([a, b]) => [
        { name: 'trace_id', value: a },
        { name: 'trace_id', value: b },
      ]),
    },
  );
}

const appendsArb = fc
  .uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 })
  .chain((names) =>
    fc.array(
      fc.record({
        ts: fc.bigInt({ min: 0n, max: 5000n }),
        line: fc.string({ maxLength: 30 }),
        sm: smArb(names),
      }),
      { minLength: 1, maxLength: 300 },
    ),
  );

const wantArb = fc.record({
  name: fc.constantFrom('trace_id', 'level', 'detected_level', 'key_1x', 'key_k', 'absent'),
  value: fc.oneof(lowValue, highValue, fc.constant('nowhere')),
});

function has(sm: Labels, want: { name: string; value: string }): boolean {
  return sm.some((p) => offeredName(p.name) === want.name && p.value === want.value);
}

function columnarChunk(appends: readonly Append[], blockSize: number): Buffer {
  const c = new MemChunk({ encoding: 'snappy', blockSize, targetSize: 0 });
  for (const a of appends) c.append(a.ts, Buffer.from(a.line), a.sm);
  return recodeChunk(c.encode(), 'columnar');
}

describe('metadata equality pushdown', () => {
  it('skips a block only when no entry of it has the metadata value', () => {
    fc.assert(
      fc.property(appendsArb, wantArb, fc.constantFrom(256, 2048), (appends, want, size) => {
        const bytes = columnarChunk(appends, size);
        const { blocks, symbols } = decodeColumnarChunk(bytes);
        for (const b of blocks) {
          if (blockMayHoldMetadata(b.layout, symbols, want)) continue;
          const run = decodeColumnarBlock(
            b.data,
            b.layout,
            b,
            symbols.strings,
            symbols.byteLengths,
          );
          for (let row = 0; row < run.count; row++) {
            const sm: { name: string; value: string }[] = [];
            for (let i = run.smOffsets[row]; i < run.smOffsets[row + 1]; i += 2) {
              sm.push({
                name: symbols.strings[run.smIds[i]],
                value: symbols.strings[run.smIds[i + 1]],
              });
            }
            expect(has(sm, want), `row ${row} of a skipped block`).toBe(false);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('answers what the unskipped read answers, filtered the same', () => {
    fc.assert(
      fc.property(appendsArb, wantArb, fc.constantFrom(256, 2048), (appends, want, size) => {
        const chunk = MemChunk.decode(columnarChunk(appends, size));
        for (const dir of ['forward', 'backward'] as const) {
          const all = drain(chunk.iterator(0n, END, dir)).filter((e) => has(e.sm, want));
          const pushed = drain(chunk.iterator(0n, END, dir, { metadataEquals: [want] })).filter(
            (e) => has(e.sm, want),
          );
          expect(pushed).toEqual(all);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('skips most blocks of a trace id held by one entry, and those of an absent level', () => {
    const appends: Append[] = [];
    for (let i = 0; i < 4000; i++) {
      appends.push({
        ts: BigInt(i),
        line: `request ${i} handled in ${i % 97}ms`,
        sm: [
          { name: 'trace_id', value: `trace-${i}` },
          { name: 'detected_level', value: i % 10 === 0 ? 'warn' : 'info' },
        ],
      });
    }
    const bytes = columnarChunk(appends, 4096);
    const { blocks, symbols } = decodeColumnarChunk(bytes);
    expect(blocks.length).toBeGreaterThan(20);
    const kept = (want: { name: string; value: string }) =>
      blocks.filter((b) => blockMayHoldMetadata(b.layout, symbols, want)).length;
    expect(kept({ name: 'trace_id', value: 'trace-1234' })).toBeLessThanOrEqual(3);
    expect(kept({ name: 'detected_level', value: 'error' })).toBe(0);
    expect(kept({ name: 'detected_level', value: 'warn' })).toBe(blocks.length);
    const chunk = MemChunk.decode(bytes);
    const found = drain(
      chunk.iterator(0n, END, 'forward', {
        metadataEquals: [{ name: 'trace_id', value: 'trace-1234' }],
      }),
    ).filter((e) => e.sm.some((p) => p.value === 'trace-1234'));
    expect(found.map((e) => e.ts)).toEqual([1234n]);
  });

  it('flags only chunks with a value filter, so chunks with listed values keep the old layout', () => {
    const entries = (values: number) =>
      Array.from({ length: 100 }, (_, i) => ({
        ts: BigInt(i),
        line: `line ${i}`,
        sm: [{ name: 'trace_id', value: `v${i % values}` }],
      }));
    const listed = columnarChunk(entries(16), 1 << 20);
    const unlisted = columnarChunk(entries(17), 1 << 20);
    expect([listed[6], unlisted[6]]).toEqual([0, 1]);
    const [old] = decodeColumnarChunk(listed).blocks;
    expect(old.layout.values).toBeNull();
    const [withFilter] = decodeColumnarChunk(unlisted).blocks;
    expect(withFilter.layout.values).not.toBeNull();
    // A flag bit a reader does not know refuses the chunk.
    const unknown = Buffer.from(unlisted);
    unknown[6] = 3;
    expect(() => decodeColumnarChunk(unknown, { checksums: false })).toThrow(
      'reserved header bytes are not zero',
    );
  });
});
