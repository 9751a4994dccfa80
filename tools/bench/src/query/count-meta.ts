/**
 * Range aggregations counted from block meta against reading every entry, in one process:
 * `npm run build && taskset -c 1 npm run -w @logsvc/bench bench:count-meta -- [runs] [options]`.
 *
 * Builds the mixed data set's 100 streams (2,960 lines each over an hour, 57.7 MB), appended by
 * interleaved clients (`--clients=N`, default 2; see `appendAsClients`) so blocks overlap in
 * time, with `--seconds` timestamps in whole seconds (so blocks share timestamps) and `--retries` some
 * batches sent twice, into in-memory snappy chunks and into columnar chunks; then times each query
 * over each, with the cursors' summaries (counting from meta) and with them hidden (every
 * entry read), alternating, and prints the median CPU ms of `runs` runs (default 5) after one
 * warm-up, and whether both answers are the same.
 */
import { matchesLabels } from '@logsvc/api';
import { type EntryCursor, MemChunk, recodeChunk, SourceMergeCursor } from '@logsvc/chunk';
import { type LogSource, runQuery, type SourceStream } from '@logsvc/logql';
import { LogGenerator } from '../gen';

const MS = 1_000_000n;
const SECOND = 1000n * MS;
const LINES_PER_STREAM = 2960;
const STREAMS = 100;

/**
 * The in-memory chunks of `entries` as `clients` push clients sharing the stream append them:
 * client c takes batches c, c + clients, …, of 20 lines, the clients take turns by batch, and
 * every other round goes in reverse client order; entries reach the chunk interleaved and out
 * of order. With `retries`, every 25th batch is sent again 8 rounds later (a push retried
 * after timeouts), so the chunk holds copies the ingester did not see in its head or previous
 * block.
 */
function appendAsClients(
  entries: readonly { timestampNs: bigint; line: Buffer }[],
  clients: number,
  retries: boolean,
): MemChunk {
  const chunk = new MemChunk({ encoding: 'snappy' });
  const batches: (typeof entries)[] = [];
  for (let b = 0; b < entries.length; b += 20) batches.push(entries.slice(b, b + 20));
  const retried = new Map<number, (typeof entries)[]>();
  for (let round = 0; round * clients < batches.length; round++) {
    const turn = batches.slice(round * clients, (round + 1) * clients);
    if (round % 2 === 0) turn.reverse();
    for (const [k, part] of turn.entries()) {
      for (const e of part) chunk.append(e.timestampNs, e.line, []);
      if (retries && (round * clients + k) % 25 === 0) {
        retried.set(round + 8, [...(retried.get(round + 8) ?? []), part]);
      }
    }
    for (const part of retried.get(round) ?? []) {
      for (const e of part) chunk.append(e.timestampNs, e.line, []);
    }
  }
  return chunk;
}

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
  const args = process.argv.slice(2);
  const runs = Number(args.find((a) => !a.startsWith('--')) ?? 5);
  const clients = Number(args.find((a) => a.startsWith('--clients='))?.slice(10) ?? 2);
  // Timestamps in whole seconds, as agents that take them from syslog lines send them: entries
  // of several clients then share timestamps.
  const wholeSeconds = args.includes('--seconds');
  const retries = args.includes('--retries');
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
    const stamped = wholeSeconds
      ? entries.map((e) => ({ ...e, timestampNs: (e.timestampNs / SECOND) * SECOND }))
      : entries;
    const chunk = appendAsClients(stamped, clients, retries);
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
