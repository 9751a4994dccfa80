/**
 * Range aggregations counted from block meta against reading every entry, in one process:
 * `npm run build && taskset -c 1 npm run -w @logsvc/bench bench:count-meta -- [runs]`.
 *
 * Builds the mixed data set's 100 streams (2,960 lines each over an hour, 57.7 MB), appended by
 * two interleaved clients (batches of 20 taken in turn, every other pair swapped) so blocks
 * overlap in time, into in-memory snappy chunks and into columnar chunks; then times each query
 * over each, with the cursors' summaries (counting from meta) and with them hidden (every
 * entry read), alternating, and prints the median CPU ms of `runs` runs (default 5) after one
 * warm-up, and whether both answers are the same.
 */
import { matchesLabels } from '@logsvc/api';
import { type EntryCursor, MemChunk, recodeChunk, SourceMergeCursor } from '@logsvc/chunk';
import { type LogSource, runQuery, type SourceStream } from '@logsvc/logql';
import { LogGenerator } from '../gen';

const MS = 1_000_000n;
const LINES_PER_STREAM = 2960;
const STREAMS = 100;

const QUERIES = [
  { name: 'topk rate 5m', query: 'topk(5, sum by (pod) (rate({env=~".+"}[5m])))', step: 60_000 },
  { name: 'sum count 3h', query: 'sum(count_over_time({env=~".+"}[3h]))', step: 0 },
  {
    name: 'sum by pod bytes 1m',
    query: 'sum by (pod) (bytes_over_time({env=~".+"}[1m]))',
    step: 60_000,
  },
];

interface Stream {
  readonly labels: SourceStream['labels'];
  readonly chunks: MemChunk[];
}

function source(streams: readonly Stream[], summaries: boolean): LogSource {
  return {
    select(p) {
      const out: SourceStream[] = [];
      for (const s of streams) {
        if (!matchesLabels(p.matchers, s.labels)) continue;
        const cursors = s.chunks.map((c) => c.iterator(p.fromNs, p.throughNs, p.direction));
        const entries: EntryCursor =
          cursors.length === 1 ? cursors[0] : new SourceMergeCursor(cursors, p.direction);
        if (!summaries) Object.defineProperty(entries, 'summarize', { value: () => null });
        out.push({ labels: s.labels, entries });
      }
      return Promise.resolve(out);
    },
  };
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  const endMs = Date.now();
  const startMs = endMs - 3_600_000;
  const gen = new LogGenerator({
    seed: 42,
    streams: STREAMS,
    startMs,
    spacingMs: 3_600_000 / LINES_PER_STREAM,
    mixedStreams: true,
  });
  const memory: Stream[] = [];
  for (let s = 0; s < STREAMS; s++) {
    const entries: Parameters<LogGenerator['entries']>[2] = [];
    gen.entries(s, LINES_PER_STREAM, entries);
    const chunk = new MemChunk({ encoding: 'snappy' });
    for (let b = 0; b < entries.length; b += 40) {
      const first = entries.slice(b, b + 20);
      const second = entries.slice(b + 20, b + 40);
      for (const part of (b / 40) % 2 === 0 ? [second, first] : [first, second]) {
        for (const e of part) chunk.append(e.timestampNs, e.line, []);
      }
    }
    memory.push({ labels: gen.streams[s].labels, chunks: [chunk] });
  }
  const columnar = memory.map((s) => ({
    labels: s.labels,
    chunks: s.chunks.map((c) => MemChunk.decode(recodeChunk(c.encode(), 'columnar'))),
  }));
  const endNs = BigInt(endMs) * MS;
  for (const q of QUERIES) {
    for (const [name, streams] of [
      ['in memory', memory],
      ['columnar', columnar],
    ] as const) {
      const cpu = { entries: [] as number[], meta: [] as number[] };
      const answers = { entries: '', meta: '' };
      for (let r = 0; r <= runs; r++) {
        for (const mode of ['entries', 'meta'] as const) {
          const before = process.cpuUsage();
          const a = await runQuery({
            query: q.query,
            kind: q.step === 0 ? 'instant' : 'range',
            startNs: q.step === 0 ? endNs : BigInt(startMs) * MS,
            endNs,
            stepMs: q.step,
            limit: 100,
            direction: 'forward',
            tenants: 't',
            source: source(streams, mode === 'meta'),
          });
          const used = process.cpuUsage(before);
          if (r > 0) cpu[mode].push((used.user + used.system) / 1000);
          answers[mode] = JSON.stringify(a.result);
        }
      }
      const e = median(cpu.entries);
      const m = median(cpu.meta);
      process.stdout.write(
        `${q.name.padEnd(20)} ${name.padEnd(9)}  entries ${e.toFixed(1)} ms  meta ${m.toFixed(1)} ms` +
          `  ${(e / m).toFixed(2)}×  same answer: ${answers.entries === answers.meta}\n`,
      );
    }
  }
}

void main();
