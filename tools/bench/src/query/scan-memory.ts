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
import { prefilterOptions } from '@logsvc/chunk';
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
const CLIENTS = 4;

const QUERIES = [
  { name: '|=', query: 'sum(count_over_time({env=~".+"} |= "timeout" [3h]))' },
  { name: '|~', query: 'sum(count_over_time({env=~".+"} |~ "status=5\\\\d\\\\d" [3h]))' },
  { name: 'logfmt', query: 'sum by (level) (count_over_time({env=~".+"} | logfmt [3h]))' },
  { name: 'json', query: 'sum(count_over_time({env=~".+"} | json | latency_ms > 500 [3h]))' },
];

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 9);
  const mixed = mixedStreams();
  const { endMs } = mixed;
  const inOrder: ChunkStream[] = [];
  const shared: ChunkStream[] = [];
  for (const { labels, entries } of mixed.streams) {
    inOrder.push({ labels, chunks: [appendAsClients(entries, 1)] });
    shared.push({ labels, chunks: [appendAsClients(entries, CLIENTS)] });
  }
  const columnar = asColumnar(shared);
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
          source: chunkSource(streams, (c, p) =>
            c.iterator(p.fromNs, p.throughNs, p.direction, prefilterOptions(p)),
          ),
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
