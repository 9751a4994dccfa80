/**
 * The token filter's build cost, in one process:
 * `npm run build && taskset -c 1 npm run -w @logsvc/bench bench:token-filter -- [runs] [--cold]`.
 *
 * Concatenates each stream of the mixed data set (100 streams of 2,960 lines, 57.7 MB) into
 * blocks of about 256 KB, as a columnar block holds its lines, and prints the median CPU ns per
 * line byte of `TokenFilter.build` over all blocks in `runs` runs (default 7) after one warm-up;
 * with `--cold`, 8 MB are written between builds, as the rest of a block's encoding does, so
 * the build starts with cold caches. Then the filters' total bytes, the share of printable
 * trigrams absent from a block that its filter lets through, and the CPU ns per line byte of
 * recoding each stream's chunk as a columnar chunk (which builds the filters).
 */
import { MemChunk, recodeChunk, TokenFilter } from '@logsvc/chunk';
import { cpuMs, median, mixedStreams } from './chunk-source';

const BLOCK_BYTES = 256 * 1024;

/** Each stream's lines concatenated into blocks of about `BLOCK_BYTES`. */
function lineBlocks(streams: ReturnType<typeof mixedStreams>['streams']): Buffer[] {
  const blocks: Buffer[] = [];
  for (const { entries } of streams) {
    let parts: Buffer[] = [];
    let bytes = 0;
    for (const { line } of entries) {
      parts.push(line);
      bytes += line.length;
      if (bytes >= BLOCK_BYTES) {
        blocks.push(Buffer.concat(parts));
        parts = [];
        bytes = 0;
      }
    }
    if (bytes > 0) blocks.push(Buffer.concat(parts));
  }
  return blocks;
}

/** The share of printable trigrams absent from each block that its filter lets through. */
function falsePositiveRate(blocks: readonly Buffer[]): number {
  let seed = 12345;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % 95;
  let tests = 0;
  let passed = 0;
  for (const block of blocks) {
    const filter = TokenFilter.build(block, 0, block.length);
    const present = new Set<number>();
    for (let i = 0; i + 3 <= block.length; i++)
      present.add((block[i] << 16) | (block[i + 1] << 8) | block[i + 2]);
    for (let k = 0; k < 2000; k++) {
      const probe = Buffer.from([0x20 + next(), 0x20 + next(), 0x20 + next()]);
      if (present.has((probe[0] << 16) | (probe[1] << 8) | probe[2])) continue;
      tests++;
      if (filter.mayContain(probe)) passed++;
    }
  }
  return passed / tests;
}

function main(): void {
  const args = process.argv.slice(2);
  const runs = Number(args.find((a) => !a.startsWith('--')) ?? 7);
  const cold = args.includes('--cold');
  const { streams } = mixedStreams();
  const blocks = lineBlocks(streams);
  const lineBytes = blocks.reduce((sum, b) => sum + b.length, 0);
  const evict = new Uint8Array(8 << 20);

  const buildNs: number[] = [];
  let filterBytes = 0;
  for (let run = 0; run <= runs; run++) {
    let ms = 0;
    filterBytes = 0;
    for (const block of blocks) {
      if (cold) evict.fill(run + block[0]);
      ms += cpuMs(() => (filterBytes += TokenFilter.build(block, 0, block.length).bits.length));
    }
    if (run > 0) buildNs.push((ms * 1e6) / lineBytes);
  }

  const encoded = streams.map(({ entries }) => {
    const chunk = new MemChunk({ encoding: 'snappy' });
    for (const e of entries) chunk.append(e.timestampNs, e.line, []);
    return chunk.encode();
  });
  const recodeNs: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const ms = cpuMs(() => {
      for (const e of encoded) recodeChunk(e, 'columnar');
    });
    if (run > 0) recodeNs.push((ms * 1e6) / lineBytes);
  }

  const mb = (lineBytes / 1e6).toFixed(1);
  console.log(`${blocks.length} blocks, ${mb} MB of lines, ${runs} runs${cold ? ', cold' : ''}`);
  console.log(`TokenFilter.build: ${median(buildNs).toFixed(2)} ns per line byte (median)`);
  console.log(`filters: ${filterBytes} bytes (${((100 * filterBytes) / lineBytes).toFixed(2)} %)`);
  console.log(`absent trigrams let through: ${(100 * falsePositiveRate(blocks)).toFixed(2)} %`);
  console.log(`recode as columnar: ${median(recodeNs).toFixed(2)} ns per line byte (median)`);
}

main();
