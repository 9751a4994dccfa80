/**
 * Push latency under query load: `npm run bench:push-latency -- [--help]`.
 *
 * Starts the built server, ingests the generator's mixed logfmt/JSON/nginx lines spread over
 * the last 3 hours (kept in the ingesters: what dashboards and alerts read), then runs phases
 * with 0, 1 and 4 clients each repeating a heavy instant query
 * (`sum by (level) (count_over_time({env=~".+"} | logfmt [3h]))`) while one agent pushes a
 * small batch (10 streams × 10 lines, snappy protobuf) every 20 ms, as Promtail does. Prints
 * each phase's push latency p50/p99/max and the heavy queries finished. `--server=PATH` runs
 * another build's `main.js` (e.g. an older commit's). Results: docs/benchmarks.md.
 */
import { encodePushProtobuf } from '@logsvc/push';
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
import { ServerProcess } from '../ingest/server-process';
import { LIFTED_LIMITS } from '../server-flags';

const TENANT = 'bench';
const PROBE_TENANT = 'agent';
const SPAN_MS = 3 * 3600_000;
const HEAVY_QUERY = 'sum by (level) (count_over_time({env=~".+"} | logfmt [3h]))';
const PUSH_EVERY_MS = 20;

interface PushLatencyOptions {
  totalBytes: number;
  streams: number;
  seed: number;
  serverFlags: string[];
  json: boolean;
  phaseMs: number;
  phases: number[];
  server?: string;
}

const USAGE = `usage: npm run bench:push-latency -- [options]
  --mb=MB                raw log line megabytes in the ingesters (default 50)
  --streams=N            distinct streams (default 100)
  --phase-seconds=S      how long each phase pushes (default 20)
  --queries=A,B,...      concurrent heavy queries of each phase (default 0,1,4)
  --server=PATH          the server's main.js (default: this checkout's build)
  --server-flag=FLAG     extra server flag, repeatable
  --seed=N               generator seed (default 42)
  --json                 print the result as JSON`;

function parseOptions(argv: readonly string[]): PushLatencyOptions {
  const o: PushLatencyOptions = {
    totalBytes: 50e6,
    streams: 100,
    seed: 42,
    serverFlags: [],
    json: false,
    phaseMs: 20_000,
    phases: [0, 1, 4],
  };
  forEachOption(argv, (arg) => {
    if (applyCommonOption(o, arg)) return true;
    switch (arg.name) {
      case 'phase-seconds':
        o.phaseMs = positiveNumber(arg.name, arg.need()) * 1000;
        return true;
      case 'queries':
        o.phases = arg
          .need()
          .split(',')
          .map((n) => (n === '0' ? 0 : positiveInt(arg.name, n)));
        return true;
      case 'server':
        o.server = existingFile(arg.name, arg.need());
        return true;
      default:
        return false;
    }
  });
  return o;
}

function plans(o: PushLatencyOptions): ClientPlan[] {
  const generator = spreadGenerator({
    seed: o.seed,
    streams: o.streams,
    totalBytes: o.totalBytes,
    startMs: Date.now() - SPAN_MS + 60_000,
    spanMs: SPAN_MS - 5 * 60_000,
  });
  return clientPlans(generator, o.totalBytes);
}

/** Repeats the heavy query until `stop` aborts; resolves to the number it finished. */
async function queryLoop(url: string, stop: AbortSignal): Promise<number> {
  let done = 0;
  while (!stop.aborted) {
    const params = new URLSearchParams({ query: HEAVY_QUERY, time: String(Date.now() * 1e6) });
    try {
      const res = await fetch(`${url}/loki/api/v1/query?${params}`, {
        headers: { 'x-scope-orgid': TENANT },
        signal: stop,
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`heavy query: ${res.status} ${text.slice(0, 300)}`);
      done++;
    } catch (err) {
      if (stop.aborted) break;
      throw err;
    }
  }
  return done;
}

/** A Promtail-like batch: 10 streams of 10 fresh lines each. */
function probeBody(seq: number): Buffer {
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const streams = Array.from({ length: 10 }, (_, s) => ({
    labels: [
      { name: 'app', value: 'probe' },
      { name: 'pod', value: `probe-${s}` },
    ],
    entries: Array.from({ length: 10 }, (_, i) => ({
      timestampNs: nowNs + BigInt(i),
      line: Buffer.from(`level=info seq=${seq} i=${i} msg="probe push under query load"`),
      structuredMetadata: [],
    })),
  }));
  return encodePushProtobuf({ streams });
}

/** Pushes every PUSH_EVERY_MS for `ms`; returns each push's latency in ms. */
async function pushLoop(url: string, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  let seq = 0;
  while (performance.now() < end) {
    const tick = performance.now();
    const body = probeBody(seq++);
    const res = await fetch(`${url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', 'x-scope-orgid': PROBE_TENANT },
      body,
    });
    await res.arrayBuffer();
    if (res.status !== 204) throw new Error(`probe push: HTTP ${res.status}`);
    latencies.push(performance.now() - tick);
    const wait = PUSH_EVERY_MS - (performance.now() - tick);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  return latencies;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

interface PhaseResult {
  heavyQueries: number;
  pushes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  heavyQueriesFinished: number;
}

async function phase(url: string, queries: number, ms: number): Promise<PhaseResult> {
  const stop = new AbortController();
  const loops = Array.from({ length: queries }, () => queryLoop(url, stop.signal));
  // Let the queries get going before measuring.
  if (queries > 0) await new Promise((r) => setTimeout(r, 1_000));
  const latencies = await pushLoop(url, ms);
  stop.abort();
  const finished = (await Promise.all(loops)).reduce((a, b) => a + b, 0);
  latencies.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    heavyQueries: queries,
    pushes: latencies.length,
    p50Ms: round(quantile(latencies, 0.5)),
    p99Ms: round(quantile(latencies, 0.99)),
    maxMs: round(latencies[latencies.length - 1]),
    heavyQueriesFinished: finished,
  };
}

async function run(o: PushLatencyOptions): Promise<void> {
  const server = await ServerProcess.start({
    flags: [...LIFTED_LIMITS, '-querier.query-timeout=5m', ...o.serverFlags],
    ...(o.server ? { main: o.server } : {}),
  });
  try {
    const load = await runLoad(await prepareAll(plans(o)), {
      url: server.url,
      durationMs: 600_000,
      tenant: TENANT,
    });
    if (load.acceptedRequests === 0)
      throw new Error(`no push was accepted: ${load.firstFailure ?? 'no request sent'}`);
    process.stderr.write(`ingested ${(load.acceptedLineBytes / 1e6).toFixed(0)} MB\n`);
    const phases: PhaseResult[] = [];
    for (const n of o.phases) {
      phases.push(await phase(server.url, n, o.phaseMs));
      process.stderr.write(`${JSON.stringify(phases[phases.length - 1])}\n`);
    }
    const result = {
      server: o.server ?? 'this checkout',
      ingestedMB: Math.round(load.acceptedLineBytes / 1e6),
      heavyQuery: HEAVY_QUERY,
      pushEveryMs: PUSH_EVERY_MS,
      phases,
    };
    process.stdout.write(`${JSON.stringify(result, null, o.json ? 2 : 1)}\n`);
  } finally {
    await server.stop(120_000);
    await server.dispose();
  }
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
