/**
 * A `|=` count over flushed columnar chunks, in one process:
 * `npm run build && taskset -c 1 npm run -w @logsvc/bench bench:scan -- [runs]`.
 *
 * Builds the mixed data set of bench:count-meta (100 streams, 2,960 lines each over an hour,
 * 57.7 MB of lines, blocks overlapping in time as two clients append them) into columnar
 * chunks, then times `sum(count_over_time({env=~".+"} |= "upstream timeout" [3h]))` and the
 * same with `!=`, each with lines decompressed into fresh buffers and into reused ones
 * (`transientLines`), alternating, printing the median CPU ms of `runs` runs (default 7) after
 * one warm-up, the lines' MB per CPU-second and whether both answers are the same. It also
 * times decompressing every block's lines column alone (what the scan cannot avoid), and the
 * lines' bytes at rest and (de)compression CPU per zstd level.
 */
import { decodeColumnarChunk, MemChunk, prefilterOptions, recodeChunk } from '@logsvc/chunk';
import { runQuery } from '@logsvc/logql';
import * as zstd from 'zstd-napi';
import { DCtx } from 'zstd-napi/binding';
import {
  appendAsClients,
  type ChunkStream,
  chunkSource,
  cpuMs,
  median,
  mixedStreams,
  MS,
} from './chunk-source';

const QUERIES = [
  'sum(count_over_time({env=~".+"} |= "upstream timeout" [3h]))',
  'sum(count_over_time({env=~".+"} != "upstream timeout" [3h]))',
];

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 7);
  const mixed = mixedStreams();
  const { endMs } = mixed;
  const streams: ChunkStream[] = [];
  const bytes: Buffer[] = [];
  for (const { labels, entries } of mixed.streams) {
    const columnar = recodeChunk(appendAsClients(entries, 2).encode(), 'columnar');
    bytes.push(columnar);
    streams.push({ labels, chunks: [MemChunk.decode(columnar)] });
  }
  // Every block's lines column, stored and raw, for the decompression-only timing.
  const lineColumns: { stored: Buffer; raw: Buffer; rawLength: number }[] = [];
  let lineBytes = 0;
  let storedLines = 0;
  let chunkBytes = 0;
  for (const buf of bytes) {
    chunkBytes += buf.length;
    for (const b of decodeColumnarChunk(buf).blocks) {
      for (const c of b.layout.columns) {
        if (c.kind !== 2) continue;
        const stored = b.data.subarray(c.offset, c.offset + c.length);
        lineBytes += c.rawLength;
        storedLines += c.length;
        lineColumns.push({ stored, raw: zstd.decompress(stored), rawLength: c.rawLength });
      }
    }
  }
  const mb = lineBytes / 1e6;
  process.stdout.write(
    `${lineColumns.length} blocks, ${mb.toFixed(1)} MB of lines, ${(storedLines / 1e6).toFixed(2)} MB` +
      ` stored (chunks ${(chunkBytes / 1e6).toFixed(2)} MB)\n`,
  );
  const endNs = BigInt(endMs) * MS;
  for (const query of QUERIES) {
    const cpu = { fresh: [] as number[], scratch: [] as number[] };
    const answers = { fresh: '', scratch: '' };
    for (let r = 0; r <= runs; r++) {
      for (const mode of ['fresh', 'scratch'] as const) {
        const before = process.cpuUsage();
        const a = await runQuery({
          query,
          kind: 'instant',
          startNs: endNs,
          endNs,
          stepMs: 0,
          limit: 100,
          direction: 'forward',
          tenants: 't',
          source: chunkSource(streams, (c, p) => {
            const transientLines = mode === 'scratch' && p.transientLines;
            return c.iterator(
              p.fromNs,
              p.throughNs,
              p.direction,
              prefilterOptions({ ...p, transientLines }),
            );
          }),
        });
        const used = process.cpuUsage(before);
        if (r > 0) cpu[mode].push((used.user + used.system) / 1000);
        answers[mode] = JSON.stringify(a.result);
      }
    }
    process.stdout.write(`${query}\n`);
    for (const mode of ['fresh', 'scratch'] as const) {
      const m = median(cpu[mode]);
      process.stdout.write(
        `  ${mode.padEnd(7)} line buffers ${m.toFixed(1)} ms  ${((mb / m) * 1000).toFixed(0)} MB/CPU-s\n`,
      );
    }
    process.stdout.write(
      `  same answer: ${answers.fresh === answers.scratch}  ${answers.scratch}\n`,
    );
  }
  // Decompression alone: fresh buffers (as the reader does) and one reused scratch buffer.
  const ctx = new DCtx();
  const scratch = Buffer.allocUnsafe(1 << 20);
  for (const [name, f] of [
    [
      'fresh',
      (c: (typeof lineColumns)[0]) => ctx.decompress(Buffer.allocUnsafe(c.rawLength), c.stored),
    ],
    ['scratch', (c: (typeof lineColumns)[0]) => ctx.decompress(scratch, c.stored)],
  ] as const) {
    const cpu: number[] = [];
    for (let r = 0; r <= runs; r++) {
      const ms = cpuMs(() => {
        for (const c of lineColumns) f(c);
      });
      if (r > 0) cpu.push(ms);
    }
    const m = median(cpu);
    process.stdout.write(
      `zstd decompress lines, ${name} buffers: ${m.toFixed(1)} ms  ${((mb / m) * 1000).toFixed(0)} MB/CPU-s\n`,
    );
  }
  // Lines at other zstd levels: bytes at rest and decompression speed.
  for (const level of [1, 3, 6, 9, 12, 15, 19]) {
    let stored: Buffer[] = [];
    const compressMs = cpuMs(() => {
      stored = lineColumns.map((c) => zstd.compress(c.raw, { compressionLevel: level }));
    });
    let size = 0;
    for (const s of stored) size += s.length;
    const cpu: number[] = [];
    for (let r = 0; r <= runs; r++) {
      const ms = cpuMs(() => {
        for (const s of stored) ctx.decompress(scratch, s);
      });
      if (r > 0) cpu.push(ms);
    }
    const m = median(cpu);
    process.stdout.write(
      `zstd level ${level}: lines ${(size / 1e6).toFixed(2)} MB  compress ${compressMs.toFixed(0)} ms` +
        `  decompress ${m.toFixed(1)} ms` +
        `  ${((mb / m) * 1000).toFixed(0)} MB/CPU-s\n`,
    );
  }
}

void main();
