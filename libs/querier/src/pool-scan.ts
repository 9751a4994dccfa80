import type { ChunkStats } from '@logsvc/logql';
import type { ScanRange, ScanResult } from './chunk-scan';
import type { ChunkScanPool } from './scan-pool';

/** The query's line prefilter, when it has a non-empty one. */
export function linePrefilter(params: { readonly lineContains?: Buffer }): Buffer | undefined {
  const needle = params.lineContains;
  return needle !== undefined && needle.length > 0 ? needle : undefined;
}

/** When the sources hand chunks to the pool, unless their options say otherwise. */
export const POOL_DEFAULTS = {
  /** Fewer chunks than this are read on the event loop: a round trip costs more. */
  minPoolChunks: 4,
  /** Nor fewer compressed bytes than this. */
  minPoolBytes: 256 * 1024,
  /** Compressed bytes of chunks sent to a worker in one request. */
  taskBytes: 1024 * 1024,
} as const;

/** How `scanInPool` spreads chunks over the pool. */
export interface PoolScanOptions {
  /** Compressed bytes of chunks sent to a worker in one request. */
  readonly taskBytes: number;
  /** Stop sending chunks once this many entries came back (Infinity: scan them all). */
  readonly budget: number;
  readonly signal?: AbortSignal | undefined;
  /** Told what each chunk's search found. */
  readonly payoff?: PoolPayoff | undefined;
}

/**
 * Whether searching a query's chunks on the pool still pays: a worker saves the event loop
 * the decompression and the search, but every entry it finds is copied back and replayed, so
 * when most lines match, the event loop ends up doing more than reading the chunks itself.
 * Judged on what the query's first batches found.
 */
export class PoolPayoff {
  private lines = 0;
  private matches = 0;

  constructor(
    /** Matches per line scanned above which the pool is not worth it. */
    private readonly maxMatchShare: number,
    /** Lines scanned before judging. */
    private readonly minLines = 20_000,
  ) {}

  record(r: ScanResult): void {
    this.lines += r.scannedLines;
    this.matches += r.count;
  }

  get worthIt(): boolean {
    return this.lines < this.minLines || this.matches <= this.maxMatchShare * this.lines;
  }
}

/**
 * Scans the chunks `data[i]` for i in `order` on the pool, a few requests per worker in flight,
 * until all are done, `budget` entries came back or `payoff` says the pool does not pay. Fills
 * `scanned[i]` (left undefined for chunks not sent) and adds the lines and bytes the workers
 * passed over to `stats.decompressedLines/Bytes`.
 */
export function scanInPool(
  pool: ChunkScanPool,
  order: readonly number[],
  data: readonly Uint8Array[],
  range: ScanRange,
  scanned: (ScanResult | undefined)[],
  stats: ChunkStats,
  options: PoolScanOptions,
): Promise<void> {
  const { taskBytes, budget, signal, payoff } = options;
  const tasks: number[][] = [];
  let bytes = 0;
  for (const i of order) {
    if (tasks.length === 0 || bytes + data[i].length > taskBytes) {
      tasks.push([]);
      bytes = 0;
    }
    tasks[tasks.length - 1].push(i);
    bytes += data[i].length;
  }
  const window = pool.size * 2;
  return new Promise((resolve, reject) => {
    let next = 0;
    let active = 0;
    let candidates = 0;
    let stop = false;
    let failed = false;
    const pump = (): void => {
      while (!stop && next < tasks.length && active < window) {
        if (signal?.aborted) {
          stop = true;
          break;
        }
        const task = tasks[next++];
        active++;
        pool
          .scan(
            task.map((i) => data[i]),
            range,
          )
          .then(
            (results) => {
              active--;
              if (failed) return;
              for (let k = 0; k < task.length; k++) {
                const r = results[k];
                scanned[task[k]] = r;
                candidates += r.count;
                payoff?.record(r);
                stats.decompressedLines += r.scannedLines;
                stats.decompressedBytes += r.scannedBytes;
              }
              if (candidates >= budget || (payoff !== undefined && !payoff.worthIt)) stop = true;
              pump();
            },
            (err: unknown) => {
              active--;
              if (failed) return;
              failed = true;
              reject(err instanceof Error ? err : new Error(String(err)));
            },
          );
      }
      if (active === 0 && !failed) resolve();
    };
    pump();
  });
}
