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
import { runQuery } from '@logsvc/logql';
import {
  appendAsClients,
  asColumnar,
  type ChunkStream,
  chunkSource,
  median,
  mixedStreams,
  MS,
} from './chunk-source';

const SECOND = 1000n * MS;

const QUERIES = [
  { name: 'topk rate 5m', query: 'topk(5, sum by (pod) (rate({env=~".+"}[5m])))', step: 60_000 },
  { name: 'sum count 3h', query: 'sum(count_over_time({env=~".+"}[3h]))', step: 0 },
  {
    name: 'sum by pod bytes 1m',
    query: 'sum by (pod) (bytes_over_time({env=~".+"}[1m]))',
    step: 60_000,
  },
];

/** Hides a cursor's summaries, so the engine reads every entry. */
function hideSummaries(entries: object): void {
  Object.defineProperty(entries, 'summarize', { value: () => null });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const runs = Number(args.find((a) => !a.startsWith('--')) ?? 5);
  const clients = Number(args.find((a) => a.startsWith('--clients='))?.slice(10) ?? 2);
  // Timestamps in whole seconds, as agents that take them from syslog lines send them: entries
  // of several clients then share timestamps.
  const wholeSeconds = args.includes('--seconds');
  const retries = args.includes('--retries');
  const mixed = mixedStreams();
  const { endMs } = mixed;
  const startMs = endMs - 3_600_000;
  const memory: ChunkStream[] = [];
  for (const { labels, entries } of mixed.streams) {
    const stamped = wholeSeconds
      ? entries.map((e) => ({ ...e, timestampNs: (e.timestampNs / SECOND) * SECOND }))
      : entries;
    memory.push({ labels, chunks: [appendAsClients(stamped, clients, retries)] });
  }
  const columnar = asColumnar(memory);
  // What the in-memory chunks' cut blocks keep beside their compressed bytes (`BlockTimes`).
  const held = { times: 0, room: 0, compressed: 0, entries: 0, blocks: 0 };
  for (const c of memory.flatMap((s) => s.chunks)) {
    held.times += c.blockTimesBytes;
    held.room += c.blockTimesHeld;
    held.compressed += c.compressedBytes;
    held.blocks += c.blockCount;
    held.entries += c.blockEntryCount;
  }
  process.stdout.write(
    `side copies of ${held.blocks} cut blocks' times: ${held.times} bytes, ` +
      `${(held.times / held.entries).toFixed(2)} per entry of them ` +
      `(${((100 * held.times) / held.compressed).toFixed(1)} % of their ${held.compressed} compressed bytes); ` +
      `${held.room} bytes held with the room for later blocks\n`,
  );
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
            source: chunkSource(streams, undefined, mode === 'meta' ? undefined : hideSummaries),
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
