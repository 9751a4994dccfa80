import { type Labels, matchesLabels, parseLabels } from '@logsvc/api';
import {
  type ChunkEncoding,
  type CursorSummary,
  MemChunk,
  recodeChunk,
  SourceMergeCursor,
} from '@logsvc/chunk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runQuery } from '../query';
import type { LogSource, SelectParams, SourceStream } from '../source';

const MS = 1_000_000n;
const BASE = BigInt(Date.UTC(2024, 2, 20)) * MS;
/** The data's span: a minute, so the windows' edges (whole ms) fall on entries often. */
const SPAN_MS = 60_000;

interface Entry {
  ts: bigint;
  line: string;
  sm: Labels;
}
/**
 * How a chunk is read: stored and read back columnar (no head block); in memory (blocks and
 * head), its cut blocks counted from their side copies of their times, as the ingester reads
 * it or as a query worker reads its snapshot; or restored from its row-format bytes (no side
 * copy: a WAL checkpoint's blocks), counted from the start of each block's payload.
 */
type ChunkForm = 'columnar' | 'memory' | 'snapshot' | 'restored';
const FORMS: readonly ChunkForm[] = ['columnar', 'memory', 'snapshot', 'restored'];

interface ChunkData {
  entries: Entry[];
  blockSize: number;
  encoding: ChunkEncoding;
  form: ChunkForm;
}
interface StreamData {
  labels: Labels;
  chunks: ChunkData[];
}

// Entries on a 250 ms grid, some a nanosecond either side: window edges are whole ms.
const tsArb = fc
  .tuple(fc.integer({ min: 0, max: SPAN_MS / 250 }), fc.constantFrom(0n, 0n, 0n, 1n, -1n))
  .map(([k, d]) => BASE + BigInt(k) * 250n * MS + d);

const entryArb: fc.Arbitrary<Entry> = fc.record({
  ts: tsArb,
  // Some lines repeat: a copy of an entry in another block is dropped by the merge.
  line: fc.oneof(fc.constantFrom('a', 'b'), fc.stringMatching(/^[a-z =]{1,40}$/)),
  sm: fc.oneof(
    { weight: 6, arbitrary: fc.constant<Labels>([]) },
    { weight: 1, arbitrary: fc.constant<Labels>([{ name: 'trace_id', value: 't1' }]) },
    { weight: 1, arbitrary: fc.constant<Labels>([{ name: 'pod', value: 'from-metadata' }]) },
  ),
});

const chunkArb: fc.Arbitrary<ChunkData> = fc
  .record({
    entries: fc.array(entryArb, { minLength: 1, maxLength: 80 }),
    // Mostly in time order (blocks apart), some not (blocks overlap: the entries are merged).
    sorted: fc.boolean(),
    blockSize: fc.constantFrom(64, 200, 1000, 64 * 1024),
    // Snappy blocks are read up to their lines; others are decompressed whole.
    encoding: fc.constantFrom<ChunkEncoding>('snappy', 'none', 'lz4'),
    form: fc.constantFrom(...FORMS),
  })
  .map(({ entries, sorted, blockSize, encoding, form }) => ({
    entries: sorted
      ? [...entries].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0))
      : entries,
    blockSize,
    encoding,
    form,
  }));

// Some streams hold a chunk twice over (as replicas do), partly, in other blocks or order:
// most timestamps are then in two runs, with the same line or another.
const chunksArb: fc.Arbitrary<ChunkData[]> = fc.oneof(
  fc.array(chunkArb, { minLength: 1, maxLength: 3 }),
  fc
    .tuple(
      chunkArb,
      fc.constantFrom(64, 200, 1000, 64 * 1024),
      fc.constantFrom(...FORMS),
      fc.array(entryArb, { maxLength: 10 }),
      fc.integer({ min: 0, max: 80 }),
    )
    .map(([c, blockSize, form, extra, cut]) => [
      c,
      { ...c, blockSize, form, entries: [...c.entries.slice(cut), ...extra].reverse() },
    ]),
);

const STREAM_LABELS = ['{app="a", pod="p0"}', '{app="a", pod="p1"}', '{app="b", pod="p0"}'];

const dataArb: fc.Arbitrary<StreamData[]> = fc.tuple(
  ...STREAM_LABELS.map((text) =>
    chunksArb.map((chunks) => ({ labels: parseLabels(text), chunks })),
  ),
);

// One chunk a stream, in time order, cut into small blocks: blocks lie apart in time, and many
// lie wholly in one window, where their meta alone (entries, line bytes, metadata names) counts.
const apartArb: fc.Arbitrary<StreamData[]> = fc.tuple(
  ...STREAM_LABELS.map((text) =>
    fc
      .record({
        entries: fc.array(entryArb, { minLength: 1, maxLength: 80 }),
        blockSize: fc.constantFrom(64, 200),
        encoding: fc.constantFrom<ChunkEncoding>('snappy', 'none', 'lz4'),
        form: fc.constantFrom(...FORMS),
      })
      .map((c) => ({
        labels: parseLabels(text),
        chunks: [{ ...c, entries: [...c.entries].sort((a, b) => (a.ts < b.ts ? -1 : 1)) }],
      })),
  ),
);

type Query = typeof queryArb extends fc.Arbitrary<infer Q> ? Q : never;

const queryArb = fc.record({
  op: fc.constantFrom('count_over_time', 'rate', 'bytes_over_time', 'bytes_rate'),
  outer: fc.constantFrom(
    'sum by (pod)',
    'sum',
    'sum by (app)',
    'sum by (trace_id)',
    'sum without (app)',
    '',
  ),
  rangeMs: fc.constantFrom(250, 1000, 3000, 5000, 20_000, 3_600_000),
  stepMs: fc.constantFrom(250, 1000, 2000, 7000, 60_000),
  // Some after the data's end: a block then lies wholly in one window and counts from its meta.
  startMs: fc.oneof(fc.integer({ min: -5000, max: SPAN_MS }), fc.constant(SPAN_MS + 1)),
  lengthMs: fc.integer({ min: 0, max: SPAN_MS }),
  instant: fc.boolean(),
});

function chunkOf(data: ChunkData): MemChunk {
  const c = new MemChunk({ blockSize: data.blockSize, targetSize: 0, encoding: data.encoding });
  for (const e of data.entries) c.append(e.ts, Buffer.from(e.line), e.sm);
  if (data.form === 'columnar') return MemChunk.decode(recodeChunk(c.encode(), 'columnar'));
  if (data.form === 'restored') return MemChunk.restore(c.encode());
  // Blocks compressed now (a query worker's snapshot has them so), not as a payload in memory.
  const snapshot = c.snapshot();
  return data.form === 'snapshot' ? MemChunk.fromSnapshot(snapshot) : c;
}

/**
 * The streams' chunks as the ingester reads them: each chunk's cursor, merged per stream.
 * `used.loads` counts the runs a count from meta loaded to compare lines.
 */
function chunkSource(
  streams: readonly { labels: Labels; chunks: MemChunk[] }[],
  summaries: boolean,
  used: Used,
): LogSource {
  return {
    select(params: SelectParams): Promise<SourceStream[]> {
      const out: SourceStream[] = [];
      for (const s of streams) {
        if (!matchesLabels(params.matchers, s.labels)) continue;
        const cursors = s.chunks.map((c) =>
          c.iterator(params.fromNs, params.throughNs, params.direction),
        );
        const merged =
          cursors.length === 1 ? cursors[0] : new SourceMergeCursor(cursors, 'forward');
        if (summaries && merged.summarize?.() != null) used.summaries++;
        // Without its summary the engine reads every entry.
        if (!summaries) Object.defineProperty(merged, 'summarize', { value: () => null });
        else {
          const summarize = merged.summarize!.bind(merged);
          Object.defineProperty(merged, 'summarize', {
            value: (): CursorSummary | null => {
              const summary = summarize();
              if (summary === null) return null;
              const runs = summary.runs.map((r) => {
                let timed = false;
                return {
                  ...r,
                  times: (lengths: boolean) => ((timed = true), r.times(lengths)),
                  report: (...args: Parameters<typeof r.report>) => {
                    if (!timed) used.untimed++;
                    r.report(...args);
                  },
                  load: () => (used.loads++, r.load()),
                };
              });
              return { ...summary, runs };
            },
          });
        }
        out.push({ labels: s.labels, entries: merged });
      }
      return Promise.resolve(out);
    },
  };
}

interface Used {
  summaries: number;
  loads: number;
  /** Runs counted from their meta alone (no times read). */
  untimed: number;
}

/** Runs the queries on the data with and without the cursors' summaries: same answers. */
async function sameAnswers(data: StreamData[], queries: Query[], used: Used): Promise<void> {
  const streams = data.map((s) => ({ labels: s.labels, chunks: s.chunks.map(chunkOf) }));
  for (const q of queries) {
    const inner = `${q.op}({app=~".+"}[${q.rangeMs}ms])`;
    const query = q.outer === '' ? inner : `${q.outer} (${inner})`;
    const startNs = BASE + BigInt(q.startMs) * MS;
    const run = (summaries: boolean) =>
      runQuery({
        query,
        kind: q.instant ? 'instant' : 'range',
        startNs,
        endNs: q.instant ? startNs : startNs + BigInt(q.lengthMs) * MS,
        stepMs: q.stepMs,
        limit: 100,
        direction: 'forward',
        tenants: 't',
        source: chunkSource(streams, summaries, used),
      });
    const want = (await run(false)).result;
    expect((await run(true)).result, query).toEqual(want);
  }
}

describe('range aggregations counted from block meta', () => {
  it('answer as reading every entry, for random chunks, blocks, ranges and steps', async () => {
    const used = { summaries: 0, loads: 0, untimed: 0 };
    await fc.assert(
      fc.asyncProperty(dataArb, fc.array(queryArb, { minLength: 1, maxLength: 4 }), (d, q) =>
        sameAnswers(d, q, used),
      ),
      { numRuns: 200 },
    );
    // The property held where the meta was used, not only where it could not be.
    expect(used.summaries).toBeGreaterThan(50);
    // ... and where runs share timestamps with lines of one length: their lines were compared
    // (some 60-110 runs in 200 cases), no entry read one by one.
    expect(used.loads).toBeGreaterThan(10);
  }, 240_000);

  it('answer as reading every entry where blocks lie apart, many counted from meta alone', async () => {
    const used = { summaries: 0, loads: 0, untimed: 0 };
    await fc.assert(
      fc.asyncProperty(apartArb, fc.array(queryArb, { minLength: 1, maxLength: 4 }), (d, q) =>
        sameAnswers(d, q, used),
      ),
      { numRuns: 200 },
    );
    // Runs counted from their meta alone, no times read: some 90-105 in 200 cases.
    expect(used.untimed).toBeGreaterThan(40);
  }, 240_000);
});
