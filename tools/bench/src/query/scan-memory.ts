/**
 * Line filters and parsers over ingester-style in-memory chunks against flushed (columnar)
 * ones, in one process: `npm run build && taskset -c 1 node tools/bench/dist/query/scan-memory.js
 * [runs]`.
 *
 * Builds the mixed data set's 100 streams (2,960 lines each over an hour, 57.7 MB) three ways:
 * in-memory snappy chunks appended in time order, the same appended by four clients sharing
 * each stream (batches of 20 taken in turn, every other round reversed, so blocks overlap in
 * time), and the latter recoded columnar; then times each query over each with the cursors'
 * prefilter as the ingester passes it, and prints the median CPU ms of `runs` runs (default 9)
 * after one warm-up. It measures the chunk scan alone: no HTTP, no gRPC, no scan pool.
 */
import { matchesLabels } from '@logsvc/api';
import {
  type EntryCursor,
  MemChunk,
  prefilterOptions,
  recodeChunk,
  SourceMergeCursor,
} from '@logsvc/chunk';
import { type LogSource, runQuery, type SourceStream } from '@logsvc/logql';
import { LogGenerator } from '../gen';

type LogEntry = Parameters<LogGenerator['entries']>[2][number];

const MS = 1_000_000n;
const LINES_PER_STREAM = 2960;
const STREAMS = 100;
const CLIENTS = 4;

const QUERIES = [
  { name: '|=', query: 'sum(count_over_time({env=~".+"} |= "timeout" [3h]))' },
  { name: '|~', query: 'sum(count_over_time({env=~".+"} |~ "status=5\\\\d\\\\d" [3h]))' },
  { name: 'logfmt', query: 'sum by (level) (count_over_time({env=~".+"} | logfmt [3h]))' },
  { name: 'json', query: 'sum(count_over_time({env=~".+"} | json | latency_ms > 500 [3h]))' },
];

interface Stream {
  readonly labels: SourceStream['labels'];
  readonly chunks: MemChunk[];
}

function source(streams: readonly Stream[]): LogSource {
  return {
    select(p) {
      const out: SourceStream[] = [];
      const options = prefilterOptions(p);
      for (const s of streams) {
        if (!matchesLabels(p.matchers, s.labels)) continue;
        const cursors = s.chunks.map((c) =>
          c.iterator(p.fromNs, p.throughNs, p.direction, options),
        );
        const entries: EntryCursor =
          cursors.length === 1 ? cursors[0] : new SourceMergeCursor(cursors, p.direction);
        out.push({ labels: s.labels, entries });
      }
      return Promise.resolve(out);
    },
  };
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

/** `entries` appended in batches of 20 by `clients` clients taking turns (see the header). */
function chunkOf(entries: readonly LogEntry[], clients: number): MemChunk {
  const chunk = new MemChunk({ encoding: 'snappy' });
  const batches: LogEntry[][] = [];
  for (let b = 0; b < entries.length; b += 20) batches.push(entries.slice(b, b + 20));
  for (let round = 0; round * clients < batches.length; round++) {
    const turn = batches.slice(round * clients, (round + 1) * clients);
    if (round % 2 === 0) turn.reverse();
    for (const part of turn) for (const e of part) chunk.append(e.timestampNs, e.line, []);
  }
  return chunk;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 9);
  const endMs = Date.now();
  const startMs = endMs - 3_600_000;
  const gen = new LogGenerator({
    seed: 42,
    streams: STREAMS,
    startMs,
    spacingMs: 3_600_000 / LINES_PER_STREAM,
    mixedStreams: true,
  });
  const inOrder: Stream[] = [];
  const shared: Stream[] = [];
  for (let s = 0; s < STREAMS; s++) {
    const entries: LogEntry[] = [];
    gen.entries(s, LINES_PER_STREAM, entries);
    const labels = gen.streams[s].labels;
    inOrder.push({ labels, chunks: [chunkOf(entries, 1)] });
    shared.push({ labels, chunks: [chunkOf(entries, CLIENTS)] });
  }
  const columnar = shared.map((s) => ({
    labels: s.labels,
    chunks: s.chunks.map((c) => MemChunk.decode(recodeChunk(c.encode(), 'columnar'))),
  }));
  const endNs = BigInt(endMs) * MS;
  const sets = [
    ['in order', inOrder],
    [`${CLIENTS} clients`, shared],
    ['columnar', columnar],
  ] as const;
  for (const q of QUERIES) {
    const cells: string[] = [];
    const answers = new Set<string>();
    for (const [name, streams] of sets) {
      const cpu: number[] = [];
      for (let r = 0; r <= runs; r++) {
        const before = process.cpuUsage();
        const a = await runQuery({
          query: q.query,
          kind: 'instant',
          startNs: endNs,
          endNs,
          stepMs: 0,
          limit: 100,
          direction: 'forward',
          tenants: 't',
          source: source(streams),
        });
        const used = process.cpuUsage(before);
        if (r > 0) cpu.push((used.user + used.system) / 1000);
        answers.add(JSON.stringify(a.result));
      }
      cells.push(`${name} ${median(cpu).toFixed(1)} ms`);
    }
    process.stdout.write(
      `${q.name.padEnd(7)} ${cells.join('  ')}  same answer: ${answers.size === 1}\n`,
    );
  }
}

void main();
