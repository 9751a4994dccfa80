import { LIFTED_LIMITS } from '../server-flags';
import { runCli } from '../cli-options';
/**
 * Query benchmark: `npm run bench:query -- [--help]`.
 *
 * Starts the built server on 127.0.0.1 (fresh temporary data dir) and, with --compare-loki, the
 * reference Loki binary; ingests a deterministic data set into each with the ingest benchmark's
 * push machinery (the default data set plus a few "needle" lines, or the mixed nginx/JSON/logfmt
 * set), then times LogQL queries over HTTP in one or two phases: on the data still in the
 * ingesters, and after a flush (logsvc restarted with `-querier.query-store-only=true`, so the
 * queries read flushed chunks). With Loki, every run of a query alternates between the two
 * servers. Prints latency, MB/s and lines/s of log lines and the server's CPU use. Results are
 * recorded in docs/benchmarks.md.
 *
 * `--frontend` (issue 15): the data is older than `query_ingesters_within`; after the flush the
 * server restarts store-only once per mode (event loop, one query worker on one CPU, one or two
 * query workers, warm results cache; see frontend-modes.ts) and times the frontend's metric range queries in each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePushProtobuf } from '@logsvc/push';
import type { BenchServer, TargetName } from '../bench-server';
import { LogGenerator, type GeneratorOptions } from '../gen';
import { clientPlans, spreadGenerator, type PreparedBody } from '../ingest/batches';
import { runLoad } from '../ingest/load';
import { prepareAll } from '../ingest/prepare';
import { type CpuPlacement, pinThisProcess, placeCpus } from '../cpu-affinity';
import { ServerProcess } from '../ingest/server-process';
import { settle } from './settle';
import { dirBytes } from '../dir-bytes';
import { findLokiBinary, LokiProcess, missingLokiMessage } from '../loki/loki-process';
import {
  findVictoriaLogsBinary,
  missingVictoriaLogsMessage,
  VictoriaLogsProcess,
  VL_LOKI_PUSH_PATH,
} from '../victorialogs/vl-process';
import { USAGE, parseOptions, type QueryBenchOptions } from './options';
import { type FrontendBenchResult, formatFrontendReport, frontendJson } from './frontend-report';
import { runFrontendModes } from './frontend-run';
import { benchQueries, frontendQueries, mixedQueries, NEEDLE, type QuerySpec } from './queries';
import {
  formatReport,
  type PhaseName,
  type PhaseResult,
  type AtRest,
  type QueryBenchResult,
  toJson,
} from './report';
import { runLogsql, runQuery, timedRun, type QueryRun } from './run-query';

/** Tenant the benchmark pushes and queries as (X-Scope-OrgID). */
const BENCH_TENANT = 'bench';
/** Needle lines pushed (one per stream, in the first streams). */
const NEEDLE_LINES = 8;

/** Limits lifted so the benchmark measures the read path, not the limiters. */
const BENCH_SERVER_FLAGS = [...LIFTED_LIMITS, '-querier.query-timeout=5m'];

interface Target {
  readonly name: TargetName;
  server: BenchServer;
}

function generatorOptions(o: QueryBenchOptions, nowMs: number): GeneratorOptions {
  return spreadGenerator({
    seed: o.seed,
    streams: o.streams,
    totalBytes: o.totalBytes,
    // Data ends a few minutes before now (--frontend: over 3 h before), so nothing is in the
    // future or too old to accept.
    startMs: nowMs - o.spanMs - o.endAgoMs,
    spanMs: o.spanMs,
    mixedStreams: o.data === 'mixed',
  });
}

async function postOk(url: string, init: RequestInit, what: string): Promise<void> {
  const res = await fetch(url, init);
  if (res.status !== 204 && res.status !== 200)
    throw new Error(`${what}: ${res.status} ${(await res.text()).trim().slice(0, 500)}`);
}

/** One line containing the needle in each of the first streams, newer than all other data. */
async function pushNeedles(url: string, vl: boolean, generator: GeneratorOptions): Promise<number> {
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
    `${url}${vl ? VL_LOKI_PUSH_PATH : '/loki/api/v1/push'}`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/x-protobuf',
        ...(vl ? {} : { 'x-scope-orgid': BENCH_TENANT }),
      },
      body: encodePushProtobuf({ streams }),
    },
    'pushing the needle lines',
  );
  return streams.length;
}

interface Ingested {
  readonly lines: number;
  readonly lineBytes: number;
  readonly startNs: bigint;
  /** Where the generated lines end (the needles come later). */
  readonly endNs: bigint;
}

/** Pushes the same prepared bodies (and needles, for the default data) to one target. */
async function ingestInto(
  target: Target,
  o: QueryBenchOptions,
  bodies: PreparedBody[][],
  generator: GeneratorOptions,
): Promise<Ingested> {
  const vl = target.name === 'victorialogs';
  const load = await runLoad(bodies, {
    url: target.server.url,
    durationMs: o.ingestDurationMs,
    // VictoriaLogs reads X-Scope-OrgID as a numeric account id: it gets none.
    ...(vl ? { path: VL_LOKI_PUSH_PATH } : { tenant: BENCH_TENANT }),
  });
  if (load.acceptedRequests === 0)
    throw new Error(
      `${target.name}: no push was accepted: ${load.firstFailure ?? 'no request sent'}`,
    );
  // A tiny --mb can put a few lines of the default data set past "now"; say so, go on.
  if (load.acceptedRequests < load.requests)
    process.stderr.write(
      `warning: ${target.name} refused ${load.requests - load.acceptedRequests} of ` +
        `${load.requests} pushes: ${load.firstFailure}\n`,
    );
  // --frontend leaves them out: they are newer than the data and only the needle query uses them.
  const needles =
    o.data === 'default' && !o.frontend ? await pushNeedles(target.server.url, vl, generator) : 0;
  process.stderr.write(
    `${target.name}: ingested ${(load.acceptedLineBytes / 1e6).toFixed(0)} MB ` +
      `(${load.acceptedLines} lines) in ${(load.elapsedMs / 1000).toFixed(1)} s\n`,
  );
  return {
    lines: load.acceptedLines + needles,
    lineBytes: load.acceptedLineBytes,
    startNs: BigInt(Math.floor(generator.startMs)) * 1_000_000n,
    endNs: BigInt(Math.ceil(generator.startMs + o.spanMs)) * 1_000_000n,
  };
}

/** `o.warmup` untimed runs per target, then timed runs alternating between the targets. */
async function timeQuery(
  targets: readonly Target[],
  spec: QuerySpec,
  o: QueryBenchOptions,
): Promise<Partial<Record<TargetName, QueryRun[]>>> {
  const runs: Partial<Record<TargetName, QueryRun[]>> = {};
  const active = targets.filter((t) => t.name !== 'victorialogs' || spec.logsql !== undefined);
  for (const t of active) {
    // index cached, code optimized
    for (let i = 0; i < o.warmup; i++) {
      if (t.name === 'victorialogs') await runLogsql(t.server.url, spec);
      else await runQuery({ url: t.server.url, tenant: BENCH_TENANT }, spec);
    }
    runs[t.name] = [];
  }
  const deadline = performance.now() + o.queryBudgetMs;
  const servers = targets.map((t) => t.server);
  for (let i = 0; i < o.runs && performance.now() < deadline; i++)
    for (const t of active) {
      await settle(servers);
      runs[t.name]!.push(await timedRun(t.server, BENCH_TENANT, spec, t.name === 'victorialogs'));
    }
  return runs;
}

async function runPhase(
  phase: PhaseName,
  targets: readonly Target[],
  o: QueryBenchOptions,
  data: Ingested,
): Promise<PhaseResult> {
  const endNs = BigInt(Date.now()) * 1_000_000n;
  const startNs = data.startNs - 60_000_000_000n;
  const all = o.data === 'mixed' ? mixedQueries(startNs, endNs) : benchQueries(startNs, endNs);
  const specs = all.filter(
    (q) => o.only.length === 0 || o.only.some((name) => q.name.includes(name)),
  );
  const result: PhaseResult = { phase, queries: [] };
  for (const spec of specs) {
    process.stderr.write(`${phase}: timing ${spec.name} …\n`);
    try {
      result.queries.push({ spec, runs: await timeQuery(targets, spec, o) });
    } catch (err) {
      const dead = targets.find((t) => !t.server.running);
      const tail = dead ? `\n${dead.name} exited; its last output:\n${dead.server.stderr()}` : '';
      throw new Error(`${(err as Error).message}${tail}`);
    }
  }
  return result;
}

/**
 * Moves every target's data out of memory: logsvc flushes, stops and restarts store-only on
 * the same data directory; Loki flushes and waits until no chunk is left in its ingester.
 */
async function toStore(
  targets: Target[],
  o: QueryBenchOptions,
  dataDir: string,
  cpus: CpuPlacement,
): Promise<void> {
  for (const t of targets) {
    const started = performance.now();
    if (t.server instanceof LokiProcess) await t.server.flushAndWait();
    else if (t.server instanceof VictoriaLogsProcess) await t.server.flush();
    else {
      await postOk(`${t.server.url}/flush`, { method: 'POST' }, 'flushing');
      await t.server.stop(120_000);
      t.server = await startLogsvc(o, dataDir, ['-querier.query-store-only=true'], cpus.server);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(`${t.name}: flushed in ${seconds} s\n`);
  }
}

/** Each target's data directory after the flush: all of it, and without its WAL. */
function atRest(targets: readonly Target[], logsvcDir: string): AtRest[] {
  return targets.map((t) => {
    const dir =
      t.server instanceof LokiProcess || t.server instanceof VictoriaLogsProcess
        ? t.server.dir
        : logsvcDir;
    return { target: t.name, bytes: dirBytes(dir), withoutWal: dirBytes(dir, new Set(['wal'])) };
  });
}

/**
 * The results cache (on by default) would answer every timed run of a metric query from what
 * its warm-up run stored; the per-query table measures the read path, so it is off there
 * (Loki's default too). --frontend sets it per mode.
 */
const NO_RESULTS_CACHE = '-querier.cache-results=false';

function startLogsvc(
  o: QueryBenchOptions,
  dataDir: string,
  extra: readonly string[] = [],
  cpus: string | null = null,
) {
  const cache = o.frontend ? [] : [NO_RESULTS_CACHE];
  return ServerProcess.start({
    dataDir,
    cpus,
    flags: [...BENCH_SERVER_FLAGS, ...cache, ...extra, ...o.serverFlags],
    nodeOptions: o.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`] : [],
  });
}

/**
 * --frontend: after the ingest, flushes and stops the server, then runs every mode on a
 * store-only restart over the same data directory.
 */
async function runFrontend(
  o: QueryBenchOptions,
  target: Target,
  data: Ingested,
  dataDir: string,
): Promise<FrontendBenchResult> {
  // The "core" mode's CPU: the last one, as the ingest benchmark pins its server.
  const cpu = placeCpus('auto').server;
  if (o.modes.includes('core') && cpu === null)
    throw new Error('mode core needs `taskset` and at least 2 CPUs; leave it out with --modes');
  const flushStarted = performance.now();
  await postOk(`${target.server.url}/flush`, { method: 'POST' }, 'flushing');
  await target.server.stop(120_000);
  const flushSeconds = ((performance.now() - flushStarted) / 1000).toFixed(1);
  process.stderr.write(`logsvc: flushed in ${flushSeconds} s\n`);
  const endMinutesAgo = Number((BigInt(Date.now()) * 1_000_000n - data.endNs) / 60_000_000_000n);
  const specs = frontendQueries(
    data.startNs - 60_000_000_000n,
    data.endNs + 60_000_000_000n,
  ).filter((q) => o.only.length === 0 || o.only.some((name) => q.name.includes(name)));
  const runs = await runFrontendModes({
    options: o,
    tenant: BENCH_TENANT,
    specs,
    start: (flags, oneCpu) =>
      startLogsvc(o, dataDir, ['-querier.query-store-only=true', ...flags], oneCpu ? cpu : null),
    onStarted: (server) => {
      target.server = server;
    },
  });
  return {
    ingestedMB: data.lineBytes / 1e6,
    ingestedLines: data.lines,
    streams: o.streams,
    spanMinutes: o.spanMs / 60_000,
    endMinutesAgo,
    cpus: availableParallelism(),
    runs,
  };
}

async function run(o: QueryBenchOptions): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'logsvc-query-bench-'));
  const lokiBinary = o.compareLoki ? findLokiBinary(o.lokiBinary) : undefined;
  if (o.compareLoki && !lokiBinary) process.stderr.write(missingLokiMessage(o.lokiBinary));
  const vlBinary = o.compareVictoriaLogs ? findVictoriaLogsBinary(o.vlBinary) : undefined;
  if (o.compareVictoriaLogs && !vlBinary)
    process.stderr.write(missingVictoriaLogsMessage(o.vlBinary));
  // Every server on the same CPU (they are timed one at a time, each once all are idle);
  // --frontend places its server per mode.
  const cpus = o.frontend ? placeCpus('all') : placeCpus(o.serverCpus);
  if (!o.frontend && o.serverCpus === 'auto' && cpus.server === null)
    process.stderr.write('note: servers not pinned (needs taskset and two or more CPUs)\n');
  const targets: Target[] = [];
  try {
    targets.push({ name: 'logsvc', server: await startLogsvc(o, dataDir, [], cpus.server) });
    if (lokiBinary)
      targets.push({
        name: 'loki',
        server: await LokiProcess.start({ binary: lokiBinary, wal: true, cpus: cpus.server }),
      });
    if (vlBinary)
      targets.push({
        name: 'victorialogs',
        server: await VictoriaLogsProcess.start({ binary: vlBinary, cpus: cpus.server }),
      });
    const generator = generatorOptions(o, Date.now());
    const bodies = await prepareAll(
      clientPlans(generator, o.totalBytes, undefined, o.interleave && !o.frontend),
    );
    if (cpus.client !== null) pinThisProcess(cpus.client);
    let data: Ingested | undefined;
    for (const t of targets) data = await ingestInto(t, o, bodies, generator);
    if (o.frontend) {
      const frontend = await runFrontend(o, targets[0], data!, dataDir);
      process.stdout.write(
        o.json
          ? `${JSON.stringify(frontendJson(frontend), null, 2)}\n`
          : `${formatFrontendReport(frontend)}\n`,
      );
      return;
    }
    const result: QueryBenchResult = {
      data: o.data,
      ingestedMB: data!.lineBytes / 1e6,
      ingestedLines: data!.lines,
      streams: o.streams,
      spanMinutes: o.spanMs / 60_000,
      warmupRuns: o.warmup,
      targets: targets.map((t) => t.name),
      phases: [],
    };
    if (o.phase !== 'store') result.phases.push(await runPhase('ingester', targets, o, data!));
    if (o.phase !== 'ingester') {
      await toStore(targets, o, dataDir, cpus);
      result.atRest = atRest(targets, dataDir);
      result.phases.push(await runPhase('store', targets, o, data!));
    }
    process.stdout.write(
      o.json ? `${JSON.stringify(toJson(result), null, 2)}\n` : `${formatReport(result)}\n`,
    );
  } finally {
    for (const t of targets) {
      await t.server.stop(120_000);
      await t.server.dispose();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
