/**
 * Sub-queries on the main thread vs on the querier's query worker pool:
 * `node tools/bench/dist/query/pool-split.js [--mb 50] [--splits 8] [--workers 2]
 * [--per-worker 1,2] [--runs 3] [--query '<LogQL>'] [--store filesystem|s3]`.
 *
 * Writes `--mb` MB of generated log lines over 8 hours as flushed chunks into a temporary
 * filesystem store (older than `query_ingesters_within`, so the pool may run them), splits one
 * metric query's range into `--splits` sub-queries and times them all in flight at once: on the main thread's
 * Querier, then through a QueryWorkerPool of `--workers` threads running `--per-worker`
 * queries each. Prints the median wall time of `--runs` runs (after one warm-up) and checks
 * that both ways give the same answer. With `--store s3` the chunks live on s3rver in a child
 * process (every object read is an HTTP request, as on real object storage).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { MemChunk } from '@logsvc/chunk';
import { Overrides, parseConfig } from '@logsvc/config';
import { LocalIngesterClient } from '@logsvc/ingester';
import type { RunQueryResult } from '@logsvc/logql';
import { Querier, type QueryRequest, QueryWorkerPool, runPooledQuery } from '@logsvc/querier';
import { type ChunkStoreSettings, type ChunkToStore, createChunkStore } from '@logsvc/storage';
import { LogGenerator } from '../gen';
import { spreadGenerator } from '../ingest/batches';

const S = 1_000_000_000n;
const HOUR = 3600n * S;
const STEP = 60n * S;
const MAX_CHUNK_AGE = 2n * HOUR;

interface Options {
  mb: number;
  splits: number;
  workers: number;
  perWorker: number[];
  runs: number;
  query: string;
  /** Chunks on s3rver in a child process (object reads over HTTP) instead of the filesystem. */
  s3: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = {
    mb: 50,
    splits: 8,
    workers: 2,
    perWorker: [1, 2],
    runs: 3,
    query: 'sum by (level) (rate({app=~".+"}[1m]))',
    s3: false,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]} needs a value`);
    switch (argv[i]) {
      case '--mb':
        o.mb = Number(value);
        break;
      case '--splits':
        o.splits = Number(value);
        break;
      case '--workers':
        o.workers = Number(value);
        break;
      case '--per-worker':
        o.perWorker = value.split(',').map(Number);
        break;
      case '--runs':
        o.runs = Number(value);
        break;
      case '--query':
        o.query = value;
        break;
      case '--store':
        if (value !== 's3' && value !== 'filesystem') throw new Error('--store s3|filesystem');
        o.s3 = value === 's3';
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return o;
}

/** s3rver (the storage tests' child script) on a free port of 127.0.0.1, with bucket `bench`. */
async function startS3rver(dir: string): Promise<{ endpoint: string; child: ChildProcess }> {
  const script = join(__dirname, '../../../../libs/storage/src/testing/s3rver-child.mjs');
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, dir, 'bench'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return { endpoint: `127.0.0.1:${port}`, child };
}

/** Generated lines as chunks of the ingester's default size, flushed into the store. */
async function writeData(
  settings: ChunkStoreSettings,
  mb: number,
  startMs: number,
  spanMs: number,
): Promise<{ lineBytes: number; chunks: number }> {
  const store = createChunkStore(settings);
  const streams = 40;
  const gen = new LogGenerator(
    spreadGenerator({ seed: 7, streams, totalBytes: mb * 1e6, startMs, spanMs }),
  );
  const perStream = Math.ceil((mb * 1e6) / streams);
  let lineBytes = 0;
  let chunks = 0;
  for (let s = 0; s < streams; s++) {
    const labels = gen.streams[s].labels;
    const stored: ChunkToStore[] = [];
    let chunk = new MemChunk();
    const flush = (): void => {
      if (chunk.entryCount === 0) return;
      const data = chunk.encode();
      stored.push({
        labels,
        fromNs: chunk.minTimeNs,
        throughNs: chunk.maxTimeNs,
        entries: chunk.entryCount,
        uncompressedSize: chunk.uncompressedBytes,
        data,
      });
      chunk = new MemChunk();
    };
    let bytes = 0;
    while (bytes < perStream) {
      const entries: Parameters<LogGenerator['entries']>[2] = [];
      bytes += gen.entries(s, 100, entries);
      for (const e of entries) {
        // Cut as the ingester does by default: when full, or at max_chunk_age (2h).
        if (chunk.entryCount > 0 && e.timestampNs - chunk.minTimeNs >= MAX_CHUNK_AGE) flush();
        chunk.append(e.timestampNs, e.line, e.structuredMetadata);
        if (chunk.isFull()) flush();
      }
    }
    flush();
    lineBytes += bytes;
    chunks += stored.length;
    await store.putChunks('bench', stored);
  }
  return { lineBytes, chunks };
}

/** `[start, end]` in `splits` step-aligned parts that do not overlap (metric queries). */
function split(o: Options, startNs: bigint, endNs: bigint): QueryRequest[] {
  const steps = (endNs - startNs) / STEP;
  const per = (steps + BigInt(o.splits) - 1n) / BigInt(o.splits);
  const out: QueryRequest[] = [];
  for (let from = startNs; from <= endNs; from += per * STEP) {
    const to = from + (per - 1n) * STEP;
    out.push({
      kind: 'range',
      query: o.query,
      startNs: from,
      endNs: to < endNs ? to : endNs,
      stepNs: STEP,
      intervalNs: 0n,
      limit: 0,
      direction: 'backward',
      tenants: ['bench'],
      categorizeLabels: false,
      clientSignal: new AbortController().signal,
    });
  }
  return out;
}

async function timed(run: () => Promise<RunQueryResult[]>, runs: number) {
  let answers = await run(); // warm-up: page cache, index cache, worker start
  const ms: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    answers = await run();
    ms.push(performance.now() - started);
  }
  // The whole process's CPU time, worker threads included.
  const used = process.cpuUsage(cpu);
  const cores = (used.user + used.system) / 1000 / ms.reduce((a, b) => a + b, 0);
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], cores, answers };
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-pool-bench-'));
  const children: ChildProcess[] = [];
  try {
    const s3 = o.s3 ? await startS3rver(join(dir, 's3')) : null;
    children.push(...(s3 === null ? [] : [s3.child]));
    const config = parseConfig({
      common: { path_prefix: dir },
      ...(s3 === null
        ? {}
        : {
            schema_config: { configs: [{ from: '2020-01-01', object_store: 's3' }] },
            storage_config: {
              aws: {
                endpoint: s3.endpoint,
                insecure: true,
                region: 'us-east-1',
                bucketnames: 'bench',
                s3forcepathstyle: true,
                access_key_id: 'S3RVER',
                secret_access_key: 'S3RVER',
              },
            },
          }),
    });
    const settings: ChunkStoreSettings = {
      schema: config.schema_config,
      filesystemDirectory: join(dir, 'chunks'),
      s3: config.storage_config.aws,
      uploader: 'bench',
      chunkCache: null,
    };
    const nowMs = Date.now();
    // Eight hours ending six hours ago: one sub-query per hour, as split_queries_by_interval.
    const spanMs = 8 * 3600_000;
    const startMs = nowMs - 14 * 3600_000;
    const written = await writeData(settings, o.mb, startMs, spanMs);
    const limits = { ...config.limits_config, max_query_length: 0, max_query_series: 100_000 };
    const querier = new Querier({
      store: createChunkStore(settings),
      ingesters: new LocalIngesterClient(),
      window: config.querier,
      overrides: new Overrides(limits, { file: '', periodMs: 10_000 }),
      now: () => BigInt(Date.now()) * 1_000_000n,
      scanWorkers: -1,
    });
    const startNs = ((BigInt(startMs) * 1_000_000n) / STEP) * STEP;
    const subs = split(o, startNs, startNs + BigInt(spanMs) * 1_000_000n - STEP);
    const mb = written.lineBytes / 1e6;
    console.log(
      `${mb.toFixed(1)} MB of lines in ${written.chunks} chunks; ${subs.length} sub-queries of ${o.query}`,
    );

    // Sub-queries one at a time first: how much of a sub-query is waiting for chunk bytes.
    let waitNs = 0;
    let execS = 0;
    for (const r of subs) {
      const { stats } = await querier.query(r);
      waitNs += stats.querier.store.chunksDownloadTime + stats.querier.store.chunkRefsFetchTime;
      execS += stats.summary.execTime;
    }
    console.log(
      `one at a time: ${(execS * 1000).toFixed(0)} ms, ${((waitNs / 1e9 / execS) * 100).toFixed(0)}% of it fetching chunk refs and chunks`,
    );
    const main = await timed(() => Promise.all(subs.map((r) => querier.query(r))), o.runs);
    console.log(
      `main thread: ${main.median.toFixed(0)} ms (${(mb / (main.median / 1000)).toFixed(0)} MB/s, ${main.cores.toFixed(2)} cores busy)`,
    );
    for (const perWorker of o.perWorker) {
      const pool = new QueryWorkerPool({
        store: settings,
        size: o.workers,
        queriesPerWorker: perWorker,
      });
      try {
        const pooled = await timed(
          () => Promise.all(subs.map((r) => runPooledQuery(querier, pool, r))),
          o.runs,
        );
        const same = pooled.answers.every((a, i) =>
          isDeepStrictEqual(a.result, main.answers[i].result),
        );
        console.log(
          `pool of ${o.workers} × ${perWorker}: ${pooled.median.toFixed(0)} ms (${(mb / (pooled.median / 1000)).toFixed(0)} MB/s, ${pooled.cores.toFixed(2)} cores busy, ${(main.median / pooled.median).toFixed(2)}× the main thread)${same ? '' : ' — ANSWERS DIFFER'}`,
        );
      } finally {
        await pool.close();
      }
    }
    await querier.close();
  } finally {
    for (const child of children) child.stdin?.end();
    await Promise.all(children.map((c) => new Promise((resolve) => c.once('exit', resolve))));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
