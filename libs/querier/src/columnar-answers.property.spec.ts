import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Labels, parseLabels } from '@logsvc/api';
import { isColumnarChunk, MemChunk, recodeChunk } from '@logsvc/chunk';
import { runQuery } from '@logsvc/logql';
import { ChunkStore, type ChunkToStore } from '@logsvc/storage';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ChunkScanPool } from './scan-pool';
import { StoreLogSource } from './store-source';
import { filesystemStoreOptions, toStoredChunk } from './testing/filesystem-store';

const MS = 1_000_000n;
/** 2024-03-20T00:00:00Z: the boundary test's columnar period starts a day later. */
const DAY0 = BigInt(Date.UTC(2024, 2, 20)) * MS;
const DAY_NS = 24n * 3600_000n * MS;

const WORDS = ['timeout', 'status=500', 'status=200', 'level=error', 'level=info', 'trace'];

interface Entry {
  ts: bigint;
  line: string;
  sm: Labels;
}

interface StreamData {
  labels: Labels;
  /** Each inner list is one chunk's appends. */
  chunks: Entry[][];
}

const entryArb = (spanNs: bigint): fc.Arbitrary<Entry> =>
  fc.record({
    ts: fc.bigInt({ min: 0n, max: spanNs }),
    line: fc
      .array(fc.oneof(fc.constantFrom(...WORDS), fc.stringMatching(/^[a-z0-9]{1,8}$/)), {
        minLength: 1,
        maxLength: 6,
      })
      .map((ws) => ws.join(' ')),
    // Metadata a parser's keys may clash with (`level`), or that a grouping reads.
    sm: fc.oneof(
      fc.constant([]),
      fc.constantFrom('a', 'b').map((v) => [{ name: 'trace_id', value: v }]),
      fc.constantFrom('info', 'warn').map((v) => [{ name: 'detected_level', value: v }]),
      fc.constantFrom('info', 'debug').map((v) => [{ name: 'level', value: v }]),
    ),
  });

const dataArb = (spanNs: bigint): fc.Arbitrary<StreamData[]> =>
  fc.tuple(
    ...['{app="a", pod="p0"}', '{app="a", pod="p1"}', '{app="b", pod="p0"}'].map((text) =>
      fc
        .array(fc.array(entryArb(spanNs), { minLength: 1, maxLength: 60 }), {
          minLength: 1,
          maxLength: 3,
        })
        .map((chunks) => ({ labels: parseLabels(text), chunks })),
    ),
  );

const queryArb = fc.oneof(
  fc.constant({ q: '{app=~".+"}', metric: false }),
  fc.constantFrom(...WORDS, 'absent-word', 'zzzz').map((w) => ({
    q: `{app=~".+"} |= "${w}"`,
    metric: false,
  })),
  fc.constant({ q: '{app="a"} |~ "timeout|status=5"', metric: false }),
  fc.constant({ q: '{app=~".+"} | trace_id="a"', metric: false }),
  fc
    .constantFrom(
      'sum by (pod) (count_over_time({app=~".+"}[5m]))',
      'sum(bytes_over_time({app=~".+"}[10m]))',
      'topk(2, sum by (pod) (rate({app=~".+"}[5m])))',
      'sum(count_over_time({app=~".+"} |= "timeout" [3h]))',
      'sum by (app) (count_over_time({app=~".+"} |~ "status=5|trace" [30m]))',
      'count_over_time({app="b"} | trace_id="b" [15m])',
      // Parsers: lines in scratch buffers, metadata left unread where the query cannot see it.
      'sum by (level) (count_over_time({app=~".+"} | logfmt [10m]))',
      'sum by (detected_level) (count_over_time({app=~".+"} | logfmt | status>=500 [10m]))',
      'sum by (level, __error__) (count_over_time({app=~".+"} | json [10m]))',
      'sum by (pod) (bytes_over_time({app=~".+"} | logfmt --strict | level="error" [10m]))',
      'sum by (level) (count_over_time({app=~".+"} | pattern "<_> level=<level> <_>" [10m]))',
    )
    .map((q) => ({ q, metric: true })),
);

/** Stores each chunk as the ingester's row format, or re-encoded as the store's period asks. */
async function put(store: ChunkStore, data: StreamData[], base: bigint, recode: boolean) {
  for (const s of data) {
    const stored: ChunkToStore[] = s.chunks.map((appends) => {
      const c = new MemChunk({ blockSize: 256, targetSize: 0 });
      for (const e of appends) c.append(base + e.ts, Buffer.from(e.line), e.sm);
      const chunk = toStoredChunk(s.labels, c);
      if (!recode) return chunk;
      const format = store.chunkFormatAt(chunk.fromNs) === 'columnar' ? 'columnar' : 'blocks';
      return { ...chunk, data: recodeChunk(chunk.data, format) };
    });
    await store.putChunks('t', stored);
  }
}

const dirs: string[] = [];
function storeWith(formats: ('blocks' | 'columnar')[]): ChunkStore {
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-columnar-'));
  dirs.push(dir);
  const options = filesystemStoreOptions(dir);
  const [first] = options.schema.configs;
  const configs = formats.map((chunk_format, i) => ({
    ...first,
    from: i === 0 ? first.from : '2024-03-21',
    chunk_format,
  }));
  return new ChunkStore({ ...options, schema: { configs } });
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function answer(
  store: ChunkStore,
  q: string,
  startNs: bigint,
  endNs: bigint,
  opts: Opts,
  source: StoreLogSource = new StoreLogSource(store),
) {
  const a = await runQuery({
    query: q,
    kind: 'range',
    startNs,
    endNs,
    stepMs: opts.stepMs,
    limit: opts.limit,
    direction: opts.direction,
    tenants: 't',
    source,
  });
  return a.result;
}

interface Opts {
  stepMs: number;
  limit: number;
  direction: 'forward' | 'backward';
}
const optsArb: fc.Arbitrary<Opts> = fc.record({
  stepMs: fc.constantFrom(30_000, 60_000, 300_000),
  limit: fc.constantFrom(5, 1000),
  direction: fc.constantFrom('forward', 'backward'),
});

describe('LogQL over columnar chunks', () => {
  it('answers every query as over the row format, for random data and queries', async () => {
    const span = 2n * 3600_000n * MS;
    await fc.assert(
      fc.asyncProperty(
        dataArb(span),
        fc.array(queryArb, { minLength: 3, maxLength: 6 }),
        optsArb,
        async (data, queries, opts) => {
          const rows = storeWith(['blocks']);
          const columnar = storeWith(['columnar']);
          await put(rows, data, DAY0, false);
          await put(columnar, data, DAY0, true);
          for (const { q } of queries) {
            const want = await answer(rows, q, DAY0, DAY0 + span, opts);
            const got = await answer(columnar, q, DAY0, DAY0 + span, opts);
            expect(got, q).toEqual(want);
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 240_000);

  it('reads a row-format period followed by a columnar one as one store, across the boundary', async () => {
    // Two hours each side of midnight, where the columnar period starts.
    const span = 4n * 3600_000n * MS;
    const base = DAY0 + DAY_NS - span / 2n;
    await fc.assert(
      fc.asyncProperty(
        dataArb(span),
        fc.array(queryArb, { minLength: 3, maxLength: 5 }),
        optsArb,
        async (data, queries, opts) => {
          const rows = storeWith(['blocks']);
          const mixed = storeWith(['blocks', 'columnar']);
          await put(rows, data, base, false);
          await put(mixed, data, base, true);
          for (const { q } of queries) {
            const want = await answer(rows, q, base, base + span, opts);
            expect(await answer(mixed, q, base, base + span, opts), q).toEqual(want);
          }
          // Chunks starting before midnight stayed in the row format, the others are columnar.
          for (const s of await mixed.getChunkRefs(
            't',
            [{ type: '=~', name: 'app', value: '.+' }],
            base,
            base + span,
          )) {
            for (const ref of s.chunks) {
              const bytes = await mixed.fetchChunk('t', ref);
              expect(isColumnarChunk(bytes)).toBe(ref.fromNs >= DAY0 + DAY_NS);
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 240_000);

  it('answers line-filter queries searched on the scan pool as the row format does', async () => {
    const pool = new ChunkScanPool({ size: 1 });
    let scans = 0;
    const scan = pool.scan.bind(pool);
    pool.scan = (chunks, range) => {
      scans++;
      return scan(chunks, range);
    };
    try {
      const span = 2n * 3600_000n * MS;
      const data = fc.sample(dataArb(span), { numRuns: 1, seed: 45 })[0];
      const rows = storeWith(['blocks']);
      const columnar = storeWith(['columnar']);
      await put(rows, data, DAY0, false);
      await put(columnar, data, DAY0, true);
      const pooled = new StoreLogSource(columnar, {
        pool,
        minPoolChunks: 1,
        minPoolBytes: 0,
        poolBatchBytes: 1,
      });
      for (const word of [...WORDS, 'absent-word']) {
        for (const direction of ['forward', 'backward'] as const) {
          const opts = { stepMs: 60_000, limit: 1000, direction };
          const q = `{app=~".+"} |= "${word}"`;
          const want = await answer(rows, q, DAY0, DAY0 + span, opts);
          expect(await answer(columnar, q, DAY0, DAY0 + span, opts, pooled), q).toEqual(want);
        }
      }
      expect(scans).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
