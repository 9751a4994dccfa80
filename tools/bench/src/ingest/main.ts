import { LIFTED_LIMITS } from '../server-flags';
import { cpuSeconds } from '../proc-stat';
import { runCli } from '../cli-options';
import { pinThisProcess, placeCpus } from '../cpu-affinity';
import {
  findVictoriaLogsBinary,
  missingVictoriaLogsMessage,
  VictoriaLogsProcess,
  VL_LOKI_PUSH_PATH,
} from '../victorialogs/vl-process';
/**
 * Ingest benchmark: `npm run bench:ingest -- [--help]`.
 *
 * Starts the built server (fresh temporary data dir, WAL on) on 127.0.0.1 unless --url is
 * given (with --compare-loki, Loki too, one after the other, the same bodies and pinning; with
 * --cluster, a distributor and ingesters on an etcd ring too, per replication factor) (by
 * default pinned to one CPU, the load on the others), prepares snappy protobuf push
 * bodies from the deterministic generator, sends a warm-up share, then sends the rest from N
 * concurrent clients for a bounded time or byte count, and prints accepted MB/s of raw log
 * line bytes, lines/s, the server's CPU time and peak RSS. Results are recorded in
 * docs/benchmarks.md.
 */
import type { PreparedBody } from './batches';
import type { BenchServer } from '../bench-server';
import { type CpuPlacement } from '../cpu-affinity';
import { findLokiBinary, LokiProcess, missingLokiMessage } from '../loki/loki-process';
import { encodePushProtobuf } from '@logsvc/push';
import { type ClientPlan } from './batches';
import { runLoad } from './load';
import { USAGE, parseOptions, type IngestBenchOptions } from './options';
import { prepareAll } from './prepare';
import { BenchCluster, type PerProcess } from './cluster-process';
import {
  clusterRf,
  formatClusterComparison,
  formatComparison,
  formatReport,
  type IngestBenchResult,
  type IngestTarget,
  summarize,
} from './report';
import { ServerProcess } from './server-process';

/** Tenant the benchmark pushes as (X-Scope-OrgID). */
const BENCH_TENANT = 'bench';

const BENCH_SERVER_FLAGS = LIFTED_LIMITS;

/** Where and as whom a target is pushed to (VictoriaLogs: Loki's API under /insert, no tenant). */
interface PushTarget {
  readonly path: string;
  readonly tenant?: string;
}

function pushTarget(target: IngestTarget): PushTarget {
  return target === 'victorialogs'
    ? { path: VL_LOKI_PUSH_PATH }
    : { path: '/loki/api/v1/push', tenant: BENCH_TENANT };
}

async function checkPush(url: string, push: PushTarget): Promise<void> {
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
  const res = await fetch(`${url}${push.path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-protobuf',
      ...(push.tenant === undefined ? {} : { 'x-scope-orgid': push.tenant }),
    },
    body,
  });
  if (res.status !== 204 && res.status !== 200)
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
    interleave: o.interleave,
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
  readonly target: IngestTarget;
  readonly round: number;
  readonly result: IngestBenchResult;
}

interface Prepared {
  readonly warmup: PreparedBody[][];
  readonly timed: PreparedBody[][];
  readonly prepareMs: number;
}

/** Checks a push is accepted, sends the warm-up share; throws when any of it failed. */
async function warmUp(
  target: IngestTarget,
  url: string,
  prepared: Prepared,
  o: IngestBenchOptions,
) {
  const push = pushTarget(target);
  await checkPush(url, push);
  const warm = await runLoad(prepared.warmup, { url, durationMs: o.durationMs, ...push });
  if (warm.acceptedRequests < warm.requests)
    throw new Error(`${target} warm-up pushes failed: ${warm.firstFailure ?? 'unknown error'}`);
}

function serverFlags(o: IngestBenchOptions): string[] {
  return [...BENCH_SERVER_FLAGS, `-ingester.wal-enabled=${o.wal}`, ...o.serverFlags];
}

function nodeOptions(o: IngestBenchOptions): string[] {
  const prof = o.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`] : [];
  return [...o.nodeOptions, ...prof];
}

const delta = (before: PerProcess, after: PerProcess, name: string): number | undefined => {
  const a = before[name];
  const b = after[name];
  return a !== undefined && b !== undefined ? b - a : undefined;
};

/**
 * Starts a cluster (etcd, the ingesters, a distributor) with replication factor `rf`, warms it
 * up and times the load through the distributor exactly as the single binary's, then stops and
 * removes all of it. CPU is of every logsvc process together; etcd's is listed apart.
 */
async function measureCluster(
  rf: number,
  o: IngestBenchOptions,
  cpus: CpuPlacement,
  prepared: Prepared,
): Promise<IngestBenchResult> {
  const target: IngestTarget = `cluster-rf${rf}`;
  let cluster: BenchCluster | undefined;
  try {
    cluster = await BenchCluster.start({
      replicationFactor: rf,
      ingesters: o.ingesters,
      flags: serverFlags(o),
      nodeOptions: nodeOptions(o),
      cpus: cpus.server,
    });
    const c = cluster;
    const url = c.url;
    await warmUp(target, url, prepared, o);
    const bodies = prepared.timed;
    const preparedBytes = bodies.flat().reduce((n, b) => n + b.lineBytes, 0);

    const sampler = setInterval(() => c.samplePeakRss(), 250);
    const cpuBefore = c.cpuSeconds();
    const load = await runLoad(bodies, { url, durationMs: o.durationMs, tenant: BENCH_TENANT });
    const cpuAfter = c.cpuSeconds();
    clearInterval(sampler);
    const peaks = c.samplePeakRss();
    const names = c.members.map((m) => m.name);
    const processes = [...names, ...('etcd' in cpuAfter ? ['etcd'] : [])].map((name) => ({
      name,
      cpuSeconds: delta(cpuBefore, cpuAfter, name),
      peakRssBytes: peaks[name],
    }));
    const logsvcCpu = processes.filter((p) => p.name !== 'etcd').map((p) => p.cpuSeconds);
    const cpu = logsvcCpu.every((s) => s !== undefined)
      ? logsvcCpu.reduce((a: number, b) => a + b!, 0)
      : undefined;
    const rssList = names.map((n) => peaks[n]);
    const rss = rssList.every((b) => b !== undefined)
      ? rssList.reduce((a: number, b) => a + b!, 0)
      : undefined;
    return {
      ...summarize(o, prepared.prepareMs, preparedBytes, load, rss, cpu, cpus.server),
      target,
      processes,
    };
  } catch (err) {
    if (cluster) (err as Error).message += `\n${cluster.stderr()}`;
    throw err;
  } finally {
    if (cluster) {
      await cluster.stop(120_000);
      await cluster.dispose();
    }
  }
}

/** Starts one server (unless --url), warms it up, times the load, stops it. */
async function measure(
  target: IngestTarget,
  o: IngestBenchOptions,
  cpus: CpuPlacement,
  prepared: Prepared,
  lokiBinary: string | undefined,
  vlBinary: string | undefined,
): Promise<IngestBenchResult> {
  const rf = clusterRf(target);
  if (rf !== undefined) return measureCluster(rf, o, cpus, prepared);
  let server: BenchServer | undefined;
  try {
    if (target === 'loki')
      server = await LokiProcess.start({ binary: lokiBinary!, wal: o.wal, cpus: cpus.server });
    else if (target === 'victorialogs')
      server = await VictoriaLogsProcess.start({ binary: vlBinary!, cpus: cpus.server });
    else if (!o.url)
      server = await ServerProcess.start({
        flags: serverFlags(o),
        nodeOptions: nodeOptions(o),
        cpus: cpus.server,
      });
    const url = o.url ?? server!.url;
    await warmUp(target, url, prepared, o);
    const bodies = prepared.timed;
    const preparedBytes = bodies.flat().reduce((n, b) => n + b.lineBytes, 0);

    const sampler = server ? setInterval(() => server!.samplePeakRss(), 250) : undefined;
    const cpuBefore = server ? cpuSeconds(server.pid) : undefined;
    const load = await runLoad(bodies, { url, durationMs: o.durationMs, ...pushTarget(target) });
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
  const vlBinary = o.compareVictoriaLogs ? findVictoriaLogsBinary(o.vlBinary) : undefined;
  if (o.compareVictoriaLogs && !vlBinary)
    process.stderr.write(missingVictoriaLogsMessage(o.vlBinary));
  const targets: IngestTarget[] = ['logsvc'];
  if (lokiBinary) targets.push('loki');
  if (vlBinary) targets.push('victorialogs');
  if (o.cluster) {
    for (const rf of o.replicationFactors) targets.push(`cluster-rf${rf}`);
    // A signal would end the bench without its exit hooks: turn it into an exit, so every
    // cluster process is killed and its directory removed.
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const)
      process.once(signal, () => process.exit(code));
  }

  const prepStart = performance.now();
  const split = splitWarmup(await prepareAll(plans(o)), o.warmupBytes);
  const prepared = { ...split, prepareMs: performance.now() - prepStart };
  // The servers are pinned by taskset; the bench's own load moves to the other CPUs.
  if (cpus.client !== null) pinThisProcess(cpus.client);

  const measured: Measured[] = [];
  for (let round = 0; round < o.rounds; round++)
    for (const target of targets) {
      process.stderr.write(`round ${round + 1}: ${target} …\n`);
      measured.push({
        target,
        round: round + 1,
        result: await measure(target, o, cpus, prepared, lokiBinary, vlBinary),
      });
    }
  if (o.json) {
    const results = measured.map((m) => m.result);
    process.stdout.write(
      `${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`,
    );
  } else {
    const reports = measured.map((m) => formatReport(m.result));
    const compare = o.cluster
      ? `\n\n${formatClusterComparison(measured)}`
      : targets.length > 1
        ? `\n\n${formatComparison(measured)}`
        : '';
    process.stdout.write(`${reports.join('\n\n')}${compare}\n`);
  }
  if (measured.some((m) => m.result.load.acceptedRequests === 0)) process.exitCode = 1;
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
