/**
 * Memory of a log query that needs little of a large range: `npm run bench:query-rss -- [--help]`.
 *
 * Ingests the benchmark generator's data spread over a day (small chunks, so every stream has
 * many), flushes it to the filesystem store, then starts a fresh server that reads only the
 * store and runs a `limit=100` backward log query over the whole day. Prints the server's RSS
 * before the query, its peak RSS (VmHWM) after the first run, the chunks it downloaded and the
 * latency of each run, then the latency of queries over the same day that read every chunk (a
 * line filter that matches nothing, searched on the scan pool, and a metric query). `--server=PATH` runs another build's `main.js` (e.g. an older commit's) over the
 * same data; `--data-dir` keeps the ingested data for such runs. Results: docs/benchmarks.md.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  applyCommonOption,
  existingFile,
  forEachOption,
  positiveInt,
  positiveNumber,
  runCli,
} from '../cli-options';
import { type ClientPlan, clientPlans, spreadGenerator } from '../ingest/batches';
import { runLoad } from '../ingest/load';
import { prepareAll } from '../ingest/prepare';
import { ServerProcess, procStatusBytes } from '../ingest/server-process';
import { LIFTED_LIMITS } from '../server-flags';

const TENANT = 'bench';
const DAY_MS = 24 * 3600_000;
/** Small chunks: a day of each stream is spread over many of them. */
const INGEST_FLAGS = [...LIFTED_LIMITS, '-ingester.chunk-target-size=256KB'];
const QUERY_FLAGS = [
  ...LIFTED_LIMITS,
  '-querier.query-timeout=5m',
  '-querier.query-store-only=true',
];

interface RssOptions {
  totalBytes: number;
  streams: number;
  seed: number;
  serverFlags: string[];
  json: boolean;
  runs: number;
  ingestDurationMs: number;
  /** The server build to query with. */
  server?: string;
  /** Where the data is (made and kept when it is missing or empty). */
  dataDir?: string;
}

const USAGE = `usage: npm run bench:query-rss -- [options]
  --mb=MB                raw log line megabytes spread over a day (default 1000)
  --streams=N            distinct streams (default 20)
  --runs=N               runs of the log query (default 5)
  --ingest-duration=S    stop ingesting after this long (default 600)
  --server=PATH          the server's main.js to query with (default: this checkout's build)
  --data-dir=DIR         ingested data: made there when missing, reused (and kept) when present
  --server-flag=FLAG     extra flag for the querying server, repeatable
  --seed=N               generator seed (default 42)
  --json                 print the result as JSON`;

function parseOptions(argv: readonly string[]): RssOptions {
  const o: RssOptions = {
    totalBytes: 1000e6,
    streams: 20,
    seed: 42,
    serverFlags: [],
    json: false,
    runs: 5,
    ingestDurationMs: 600_000,
  };
  forEachOption(argv, (arg) => {
    if (applyCommonOption(o, arg)) return true;
    switch (arg.name) {
      case 'runs':
        o.runs = positiveInt(arg.name, arg.need());
        return true;
      case 'ingest-duration':
        o.ingestDurationMs = positiveNumber(arg.name, arg.need()) * 1000;
        return true;
      case 'server':
        o.server = existingFile(arg.name, arg.need());
        return true;
      case 'data-dir':
        o.dataDir = resolve(arg.need());
        return true;
      default:
        return false;
    }
  });
  return o;
}

/** The generator's streams, each spread evenly over the day before now. */
function plans(o: RssOptions): ClientPlan[] {
  const generator = spreadGenerator({
    seed: o.seed,
    streams: o.streams,
    totalBytes: o.totalBytes,
    startMs: Date.now() - DAY_MS - 5 * 60_000,
    spanMs: DAY_MS,
  });
  return clientPlans(generator, o.totalBytes, Math.min(10, o.streams));
}

async function ingest(dataDir: string, o: RssOptions): Promise<void> {
  const server = await ServerProcess.start({ dataDir, flags: INGEST_FLAGS });
  try {
    const load = await runLoad(await prepareAll(plans(o)), {
      url: server.url,
      durationMs: o.ingestDurationMs,
      tenant: TENANT,
    });
    if (load.acceptedRequests === 0)
      throw new Error(`no push was accepted: ${load.firstFailure ?? 'no request sent'}`);
    const res = await fetch(`${server.url}/flush`, { method: 'POST' });
    if (res.status !== 204 && res.status !== 200) throw new Error(`flush: ${res.status}`);
    process.stderr.write(`ingested ${(load.acceptedLineBytes / 1e6).toFixed(0)} MB\n`);
  } finally {
    await server.stop(600_000);
    await server.dispose();
  }
}

/** Bytes and number of the chunk objects under `dir` (index files left out). */
function chunkBytes(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'index') walk(p);
      } else {
        files++;
        bytes += statSync(p).size;
      }
    }
  };
  walk(dir);
  return { bytes, files };
}

interface Answer {
  wallMs: number;
  chunksDownloaded: number;
  entries: number;
}

async function query(url: string, q: string, extra: Record<string, string>): Promise<Answer> {
  const endNs = BigInt(Date.now()) * 1_000_000n;
  const startNs = endNs - BigInt(DAY_MS + 10 * 60_000) * 1_000_000n;
  const params = new URLSearchParams({
    query: q,
    start: startNs.toString(),
    end: endNs.toString(),
    direction: 'backward',
    ...extra,
  });
  const started = performance.now();
  const res = await fetch(`${url}/loki/api/v1/query_range?${params}`, {
    headers: { 'x-scope-orgid': TENANT },
  });
  const text = await res.text();
  const wallMs = performance.now() - started;
  if (res.status !== 200) throw new Error(`${q}: HTTP ${res.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as {
    data: {
      result: { values?: unknown[] }[];
      stats: { querier: { store: { totalChunksDownloaded: number } } };
    };
  };
  return {
    wallMs,
    chunksDownloaded: body.data.stats.querier.store.totalChunksDownloaded,
    entries: body.data.result.reduce((n, s) => n + (s.values?.length ?? 0), 0),
  };
}

const MiB = 1024 * 1024;

async function run(o: RssOptions): Promise<void> {
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'logsvc-rss-bench-'));
  mkdirSync(dataDir, { recursive: true });
  try {
    if (readdirSync(dataDir).length === 0) await ingest(dataDir, o);
    const stored = chunkBytes(join(dataDir, 'chunks'));
    const server = await ServerProcess.start({
      dataDir,
      flags: [...QUERY_FLAGS, ...o.serverFlags],
      ...(o.server ? { main: o.server } : {}),
    });
    try {
      const rssBefore = procStatusBytes(server.pid, 'VmRSS') ?? 0;
      const log: Answer[] = [];
      let peakAfterFirst = 0;
      for (let i = 0; i < o.runs; i++) {
        log.push(await query(server.url, '{env=~".+"}', { limit: '100' }));
        if (i === 0) peakAfterFirst = server.samplePeakRss() ?? 0;
      }
      const peakAfterLog = server.samplePeakRss() ?? 0;
      // Queries that read every chunk: a rare line filter (on the scan pool), and a metric query.
      const needle: Answer[] = [];
      for (let i = 0; i < 3; i++) {
        needle.push(await query(server.url, '{env=~".+"} |= "no-such-needle"', { limit: '100' }));
      }
      const metric = await query(server.url, 'sum by (app) (count_over_time({env=~".+"}[5m]))', {
        step: '300s',
      });
      const result = {
        server: o.server ?? 'this checkout',
        storedChunkMB: stored.bytes / 1e6,
        storedObjects: stored.files,
        rssBeforeMiB: rssBefore / MiB,
        peakRssFirstLogQueryMiB: peakAfterFirst / MiB,
        peakRssAllLogQueriesMiB: peakAfterLog / MiB,
        logQuery: {
          entries: log[0].entries,
          chunksDownloaded: log[0].chunksDownloaded,
          wallMs: log.map((a) => Math.round(a.wallMs)),
        },
        rareLineFilter: {
          chunksDownloaded: needle[0].chunksDownloaded,
          wallMs: needle.map((a) => Math.round(a.wallMs)),
        },
        metricQuery: {
          samples: metric.entries,
          chunksDownloaded: metric.chunksDownloaded,
          wallMs: Math.round(metric.wallMs),
        },
      };
      process.stdout.write(`${JSON.stringify(result, null, o.json ? 2 : 1)}\n`);
    } finally {
      await server.stop(120_000);
      await server.dispose();
    }
  } finally {
    if (o.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
