import { LIFTED_LIMITS } from '../server-flags';
import { cpuSeconds } from '../proc-stat';
import { runCli } from '../cli-options';
import { pinThisProcess, placeCpus } from '../cpu-affinity';
/**
 * Ingest benchmark: `npm run bench:ingest -- [--help]`.
 *
 * Starts the built server (fresh temporary data dir, WAL on) on 127.0.0.1 unless --url is
 * given (with --compare-loki, Loki too, one after the other, the same bodies and pinning) (by default pinned to one CPU, the load on the others), prepares snappy protobuf push
 * bodies from the deterministic generator, sends a warm-up share, then sends the rest from N
 * concurrent clients for a bounded time or byte count, and prints accepted MB/s of raw log
 * line bytes, lines/s, the server's CPU time and peak RSS. Results are recorded in
 * docs/benchmarks.md.
 */
import type { PreparedBody } from './batches';
import type { BenchServer, TargetName } from '../bench-server';
import { type CpuPlacement } from '../cpu-affinity';
import { findLokiBinary, LokiProcess, missingLokiMessage } from '../loki/loki-process';
import { encodePushProtobuf } from '@logsvc/push';
import { type ClientPlan } from './batches';
import { runLoad } from './load';
import { USAGE, parseOptions, type IngestBenchOptions } from './options';
import { prepareAll } from './prepare';
import { formatComparison, formatReport, type IngestBenchResult, summarize } from './report';
import { ServerProcess } from './server-process';

/** Tenant the benchmark pushes as (X-Scope-OrgID). */
const BENCH_TENANT = 'bench';

const BENCH_SERVER_FLAGS = LIFTED_LIMITS;

async function checkPush(url: string): Promise<void> {
  const body = encodePushProtobuf({
    streams: [
      {
        labels: [{ name: 'bench', value: 'probe' }],
        entries: [
          {
            timestampNs: BigInt(Date.now()) * 1_000_000n,
            line: Buffer.from('probe'),
            structuredMetadata: [],
          },
        ],
      },
    ],
  });
  const res = await fetch(`${url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf', 'x-scope-orgid': BENCH_TENANT },
    body,
  });
  if (res.status !== 204)
    throw new Error(`push is not accepted by ${url}: ${res.status} ${(await res.text()).trim()}`);
}

function plans(o: IngestBenchOptions): ClientPlan[] {
  // Timestamps start a few minutes back so none is in the future or too old to accept.
  const generator = {
    seed: o.seed,
    streams: o.streams,
    startMs: Date.now() - 10 * 60_000,
    spacingMs: 0.1,
    structuredMetadata: o.structuredMetadata,
    linePool: 20_000,
  };
  return Array.from({ length: o.clients }, (_, client) => ({
    generator,
    client,
    clients: o.clients,
    lineBytes: (o.warmupBytes + o.totalBytes) / o.clients,
    streamsPerBatch: o.streamsPerBatch,
    linesPerStream: o.linesPerStream,
  }));
}

/** Splits each client's bodies into the first `bytes / clients` line bytes and the rest. */
function splitWarmup(
  bodies: PreparedBody[][],
  bytes: number,
): { warmup: PreparedBody[][]; timed: PreparedBody[][] } {
  const perClient = bytes / bodies.length;
  const warmup: PreparedBody[][] = [];
  const timed: PreparedBody[][] = [];
  for (const list of bodies) {
    let sent = 0;
    let i = 0;
    while (i < list.length && sent < perClient) sent += list[i++].lineBytes;
    warmup.push(list.slice(0, i));
    timed.push(list.slice(i));
  }
  return { warmup, timed };
}

interface Measured {
  readonly target: TargetName;
  readonly result: IngestBenchResult;
}

/** Starts one server (unless --url), warms it up, times the load, stops it. */
async function measure(
  target: TargetName,
  o: IngestBenchOptions,
  cpus: CpuPlacement,
  prepared: { warmup: PreparedBody[][]; timed: PreparedBody[][]; prepareMs: number },
  lokiBinary: string | undefined,
): Promise<IngestBenchResult> {
  let server: BenchServer | undefined;
  try {
    if (target === 'loki')
      server = await LokiProcess.start({ binary: lokiBinary!, wal: o.wal, cpus: cpus.server });
    else if (!o.url)
      server = await ServerProcess.start({
        flags: [...BENCH_SERVER_FLAGS, `-ingester.wal-enabled=${o.wal}`, ...o.serverFlags],
        nodeOptions: o.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`] : [],
        cpus: cpus.server,
      });
    const url = o.url ?? server!.url;
    await checkPush(url);
    const { warmup, timed: bodies } = prepared;
    const preparedBytes = bodies.flat().reduce((n, b) => n + b.lineBytes, 0);
    const warm = await runLoad(warmup, { url, durationMs: o.durationMs, tenant: BENCH_TENANT });
    if (warm.acceptedRequests < warm.requests)
      throw new Error(`${target} warm-up pushes failed: ${warm.firstFailure ?? 'unknown error'}`);

    const sampler = server ? setInterval(() => server!.samplePeakRss(), 250) : undefined;
    const cpuBefore = server ? cpuSeconds(server.pid) : undefined;
    const load = await runLoad(bodies, { url, durationMs: o.durationMs, tenant: BENCH_TENANT });
    const cpuAfter = server ? cpuSeconds(server.pid) : undefined;
    if (sampler) clearInterval(sampler);
    const peak = server?.samplePeakRss();
    const cpu =
      cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
    return {
      ...summarize(o, prepared.prepareMs, preparedBytes, load, peak, cpu, cpus.server),
      target,
    };
  } finally {
    if (server) {
      await server.stop(120_000);
      await server.dispose();
    }
  }
}

async function run(o: IngestBenchOptions): Promise<void> {
  const cpus = o.url ? { server: null, client: null } : placeCpus(o.serverCpus);
  const lokiBinary = o.compareLoki ? findLokiBinary(o.lokiBinary) : undefined;
  if (o.compareLoki && !lokiBinary) process.stderr.write(missingLokiMessage(o.lokiBinary));
  const targets: TargetName[] = lokiBinary ? ['logsvc', 'loki'] : ['logsvc'];

  const prepStart = performance.now();
  const split = splitWarmup(await prepareAll(plans(o)), o.warmupBytes);
  const prepared = { ...split, prepareMs: performance.now() - prepStart };
  // The servers are pinned by taskset; the bench's own load moves to the other CPUs.
  if (cpus.client !== null) pinThisProcess(cpus.client);

  const measured: Measured[] = [];
  for (let round = 0; round < o.rounds; round++)
    for (const target of targets) {
      process.stderr.write(`round ${round + 1}: ${target} …\n`);
      measured.push({ target, result: await measure(target, o, cpus, prepared, lokiBinary) });
    }
  if (o.json) {
    const results = measured.map((m) => m.result);
    process.stdout.write(
      `${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`,
    );
  } else {
    const reports = measured.map((m) => formatReport(m.result));
    const compare = targets.length > 1 ? `\n\n${formatComparison(measured)}` : '';
    process.stdout.write(`${reports.join('\n\n')}${compare}\n`);
  }
  if (measured.some((m) => m.result.load.acceptedRequests === 0)) process.exitCode = 1;
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
