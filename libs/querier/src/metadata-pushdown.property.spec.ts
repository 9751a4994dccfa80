import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Labels, parseLabels } from '@logsvc/api';
import { MemChunk, recodeChunk } from '@logsvc/chunk';
import { type LogSource, runQuery, type SelectParams } from '@logsvc/logql';
import { ChunkStore } from '@logsvc/storage';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreLogSource } from './store-source';
import { filesystemStoreOptions, toStoredChunk } from './testing/filesystem-store';

const MS = 1_000_000n;
const DAY0 = BigInt(Date.UTC(2024, 2, 20)) * MS;
const SPAN = 3600_000n * MS;

interface Entry {
  ts: bigint;
  line: string;
  sm: Labels;
}

// Trace ids of high cardinality (blocks list no values: the value filter decides), a level of
// low cardinality (the listed values decide), a name LogQL renames (`trace.id` → `trace_id`).
const traceArb = fc.integer({ min: 0, max: 300 }).map((i) => `t${i}`);
const smArb: fc.Arbitrary<Labels> = fc.oneof(
  fc.constant([]),
  fc.tuple(traceArb, fc.constantFrom('info', 'warn', 'error')).map(([t, l]) => [
    { name: 'trace_id', value: t },
    { name: 'detected_level', value: l },
  ]),
  traceArb.map((t) => [{ name: 'trace.id', value: t }]),
);
const entryArb: fc.Arbitrary<Entry> = fc.record({
  ts: fc.bigInt({ min: 0n, max: SPAN - 1n }),
  line: fc.stringMatching(/^[a-z ]{1,20}$/),
  sm: smArb,
});
// The third stream has a `trace_id` stream label: its metadata of that name is offered as
// `trace_id_extracted`, and `| trace_id="…"` tests the stream label.
const STREAMS = ['{app="a", pod="p0"}', '{app="a", pod="p1"}', '{app="b", trace_id="t7"}'];

const queryArb = fc.oneof(
  traceArb.map((t) => `{app=~".+"} | trace_id="${t}"`),
  traceArb.map((t) => `{app=~".+"} |= "a" | trace_id="${t}" | detected_level="warn"`),
  fc.constant('{app=~".+"} | trace_id="t7"'),
  fc.constantFrom('warn', 'error', 'debug').map((l) => `{app=~".+"} | detected_level="${l}"`),
  traceArb.map((t) => `sum by (app) (count_over_time({app=~".+"} | trace_id="${t}" [10m]))`),
  fc.constant('sum(count_over_time({app=~".+"} | detected_level="error" or trace_id="t1" [5m]))'),
);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The store source, but never told of the query's metadata equalities. */
class UnskippedSource implements LogSource {
  constructor(private readonly inner: StoreLogSource) {}
  select(params: SelectParams) {
    const { metadataEquals: _, ...rest } = params;
    return this.inner.select(rest);
  }
}

describe('structured-metadata equality pushed down to the chunk read', () => {
  it('answers every query as the read that skips no block, and reads fewer lines', async () => {
    let fewer = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...STREAMS.map(() => fc.array(entryArb, { minLength: 1, maxLength: 400 }))),
        fc.array(queryArb, { minLength: 2, maxLength: 5 }),
        fc.constantFrom('forward' as const, 'backward' as const),
        async (streams, queries, direction) => {
          const dir = mkdtempSync(join(tmpdir(), 'logsvc-sm-pushdown-'));
          dirs.push(dir);
          const store = new ChunkStore(filesystemStoreOptions(dir));
          for (const [i, entries] of streams.entries()) {
            const c = new MemChunk({ blockSize: 512, targetSize: 0 });
            for (const e of entries) c.append(DAY0 + e.ts, Buffer.from(e.line), e.sm);
            const chunk = toStoredChunk(parseLabels(STREAMS[i]), c);
            await store.putChunks('t', [{ ...chunk, data: recodeChunk(chunk.data, 'columnar') }]);
          }
          const pushed = new StoreLogSource(store);
          const unskipped = new UnskippedSource(new StoreLogSource(store));
          for (const q of queries) {
            const run = (source: LogSource) =>
              runQuery({
                query: q,
                kind: 'range',
                startNs: DAY0,
                endNs: DAY0 + SPAN,
                stepMs: 60_000,
                limit: 1000,
                direction,
                tenants: 't',
                source,
              });
            const want = await run(unskipped);
            const got = await run(pushed);
            expect(got.result, q).toEqual(want.result);
            const lines = (r: typeof got) => r.stats.querier.store.chunk.decompressedLines;
            expect(lines(got)).toBeLessThanOrEqual(lines(want));
            if (lines(got) < lines(want)) fewer++;
          }
        },
      ),
      { numRuns: 30 },
    );
    expect(fewer).toBeGreaterThan(0);
  }, 240_000);
});
