import { LIFTED_LIMITS } from '../server-flags';
import { runCli } from '../cli-options';
/**
 * Query benchmark: `npm run bench:query -- [--help]`.
 *
 * Starts the built server on 127.0.0.1 (fresh temporary data dir), ingests the ingest
 * benchmark's deterministic data (plus a few "needle" lines) with its push machinery, flushes
 * every chunk to the store, restarts the server with `-querier.query-store-only=true` (so the
 * queries read flushed chunks, not ingester memory), then times LogQL queries over HTTP and
 * prints latency, MB/s and lines/s of log lines scanned, and the server's CPU use. Results are
 * recorded in docs/benchmarks.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePushProtobuf } from '@logsvc/push';
import { LogGenerator, type GeneratorOptions } from '../gen';
import type { ClientPlan } from '../ingest/batches';
import { runLoad } from '../ingest/load';
import { prepareAll } from '../ingest/prepare';
import { ServerProcess } from '../ingest/server-process';
import { USAGE, parseOptions, type QueryBenchOptions } from './options';
import { benchQueries, NEEDLE, type QuerySpec } from './queries';
import { formatReport, type QueryBenchResult, toJson } from './report';
import { cpuSeconds } from '../proc-stat';
import { runQuery, type QueryRun } from './run-query';

/** Tenant the benchmark pushes and queries as (X-Scope-OrgID). */
const BENCH_TENANT = 'bench';
/** Average raw line length of the generator's mix, to spread lines over the span. */
const MEAN_LINE_BYTES = 197;
/** Needle lines pushed (one per stream, in the first streams). */
const NEEDLE_LINES = 8;

/** Limits lifted so the benchmark measures the read path, not the limiters. */
const BENCH_SERVER_FLAGS = [...LIFTED_LIMITS, '-querier.query-timeout=5m'];

function generatorOptions(o: QueryBenchOptions, nowMs: number): GeneratorOptions {
  const linesPerStream = Math.max(1, o.totalBytes / MEAN_LINE_BYTES / o.streams);
  return {
    seed: o.seed,
    streams: o.streams,
    // Data ends a few minutes before now, so nothing is in the future or too old to accept.
    startMs: nowMs - o.spanMs - 5 * 60_000,
    spacingMs: o.spanMs / linesPerStream,
    structuredMetadata: false,
    linePool: 20_000,
  };
}

function plans(o: QueryBenchOptions, generator: GeneratorOptions): ClientPlan[] {
  const clients = Math.min(4, o.streams);
  return Array.from({ length: clients }, (_, client) => ({
    generator,
    client,
    clients,
    lineBytes: o.totalBytes / clients,
    streamsPerBatch: 10,
    linesPerStream: 100,
  }));
}

async function postOk(url: string, init: RequestInit, what: string): Promise<void> {
  const res = await fetch(url, init);
  if (res.status !== 204 && res.status !== 200)
    throw new Error(`${what}: ${res.status} ${(await res.text()).trim().slice(0, 500)}`);
}

/** One line containing the needle in each of the first streams, newer than all other data. */
async function pushNeedles(url: string, generator: GeneratorOptions): Promise<number> {
  const gen = new LogGenerator({ ...generator, linePool: 1 });
  const baseNs = BigInt(Date.now() - 2 * 60_000) * 1_000_000n;
  const streams = gen.streams.slice(0, NEEDLE_LINES).map((s, k) => ({
    labels: s.labels,
    entries: [
      {
        timestampNs: baseNs + BigInt(k) * 1_000_000n,
        line: Buffer.from(`level=error msg="lost the ${NEEDLE} in the haystack" attempt=${k}`),
        structuredMetadata: [],
      },
    ],
  }));
  await postOk(
    `${url}/loki/api/v1/push`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', 'x-scope-orgid': BENCH_TENANT },
      body: encodePushProtobuf({ streams }),
    },
    'pushing the needle lines',
  );
  return streams.length;
}

interface Ingested {
  readonly lines: number;
  readonly lineBytes: number;
  readonly seconds: number;
  readonly startNs: bigint;
}

async function ingest(server: ServerProcess, o: QueryBenchOptions): Promise<Ingested> {
  const generator = generatorOptions(o, Date.now());
  const bodies = await prepareAll(plans(o, generator));
  const load = await runLoad(bodies, {
    url: server.url,
    durationMs: o.ingestDurationMs,
    tenant: BENCH_TENANT,
  });
  if (load.acceptedRequests === 0)
    throw new Error(`no push was accepted: ${load.firstFailure ?? 'no request sent'}`);
  const needles = await pushNeedles(server.url, generator);
  const flushStart = performance.now();
  await postOk(`${server.url}/flush`, { method: 'POST' }, 'flushing');
  process.stderr.write(
    `ingested ${(load.acceptedLineBytes / 1e6).toFixed(0)} MB (${load.acceptedLines} lines) ` +
      `in ${(load.elapsedMs / 1000).toFixed(1)} s, flushed in ` +
      `${((performance.now() - flushStart) / 1000).toFixed(1)} s\n`,
  );
  return {
    lines: load.acceptedLines + needles,
    lineBytes: load.acceptedLineBytes,
    seconds: load.elapsedMs / 1000,
    startNs: BigInt(Math.floor(generator.startMs)) * 1_000_000n,
  };
}

async function timeQuery(
  server: ServerProcess,
  spec: QuerySpec,
  o: QueryBenchOptions,
): Promise<QueryRun[]> {
  const target = { url: server.url, tenant: BENCH_TENANT };
  await runQuery(target, spec); // warm-up: index files cached, code optimized
  const runs: QueryRun[] = [];
  const deadline = performance.now() + o.queryBudgetMs;
  while (runs.length < o.runs && performance.now() < deadline) {
    const cpuBefore = cpuSeconds(server.pid);
    const run = await runQuery(target, spec);
    const cpuAfter = cpuSeconds(server.pid);
    runs.push({
      ...run,
      cpuSeconds:
        cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
    });
  }
  return runs;
}

async function run(o: QueryBenchOptions): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'logsvc-query-bench-'));
  let server: ServerProcess | undefined;
  try {
    server = await ServerProcess.start({ dataDir, flags: BENCH_SERVER_FLAGS });
    const data = await ingest(server, o);
    // A restart empties the ingester's memory; store-only makes every query read chunks.
    await server.stop(120_000);
    server = await ServerProcess.start({
      dataDir,
      flags: [...BENCH_SERVER_FLAGS, '-querier.query-store-only=true', ...o.serverFlags],
      nodeOptions: o.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`] : [],
    });
    const endNs = BigInt(Date.now()) * 1_000_000n;
    const startNs = data.startNs - 60_000_000_000n;
    const specs = benchQueries(startNs, endNs).filter(
      (q) => o.only.length === 0 || o.only.some((name) => q.name.includes(name)),
    );
    const result: QueryBenchResult = {
      ingestedMB: data.lineBytes / 1e6,
      ingestedLines: data.lines,
      streams: o.streams,
      spanMinutes: o.spanMs / 60_000,
      queries: [],
    };
    for (const spec of specs) {
      process.stderr.write(`timing ${spec.name} …\n`);
      try {
        result.queries.push({ spec, runs: await timeQuery(server, spec, o) });
      } catch (err) {
        const tail = server.running ? '' : `\nserver exited; its last output:\n${server.stderr()}`;
        throw new Error(`${(err as Error).message}${tail}`);
      }
    }
    process.stdout.write(
      o.json ? `${JSON.stringify(toJson(result), null, 2)}\n` : `${formatReport(result)}\n`,
    );
  } finally {
    if (server) {
      await server.stop(120_000);
      await server.dispose();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
