/**
 * Tail fan-out: `npm run bench:tail -- [--help]`.
 *
 * Starts the built server pinned to one CPU, pushes `--mb-per-s` of log lines (snappy protobuf,
 * one push every 100 ms over `--streams` streams) and, phase by phase, holds N live tails open
 * on `/loki/api/v1/tail`. Each tail selects one stream (`--select=stream`, a Grafana live view
 * of one service: each entry goes to N/streams tails) or every stream (`--select=all`: each
 * entry goes to every tail). Lines carry their push time, so the tails measure the latency from
 * push to frame (p50/p99 over `--sample` tails). A phase "keeps up" when the push rate holds (90 %),
 * no entry is dropped and p99 stays under a second. Results: docs/benchmarks.md.
 */
import { encodePushProtobuf } from '@logsvc/push';
import WebSocket from 'ws';
import { OptionsError, forEachOption, positiveInt, positiveNumber, runCli } from '../cli-options';
import { pinThisProcess } from '../cpu-affinity';
import { ServerProcess } from '../ingest/server-process';
import { cpuSeconds } from '../proc-stat';
import { LIFTED_LIMITS } from '../server-flags';

const TENANT = 'bench';
const PUSH_EVERY_MS = 100;
const LINE_BYTES = 200;

interface FanOutOptions {
  tails: number[];
  mbPerS: number;
  streams: number;
  select: 'stream' | 'all';
  seconds: number;
  sample: number;
  cpus: string;
  clientCpus: string;
  json: boolean;
}

const USAGE = `usage: npm run bench:tail -- [options]
  --tails=A,B,...     concurrent tails of each phase (default 10,100,500,1000)
  --mb-per-s=MB       raw line megabytes pushed per second (default 10)
  --streams=N         streams the pushes spread over (default 100)
  --select=stream|all each tail selects one stream (default) or all of them
  --seconds=S         measured seconds per phase (default 10)
  --sample=N          tails whose frames are parsed for latency (default 20)
  --cpus=LIST         CPUs of the server (taskset -c; default 0)
  --client-cpus=LIST  CPUs of this process: pusher and tail clients (default 1)
  --json              print the result as JSON`;

function parseOptions(argv: readonly string[]): FanOutOptions {
  const o: FanOutOptions = {
    tails: [10, 100, 500, 1000],
    mbPerS: 10,
    streams: 100,
    select: 'stream',
    seconds: 10,
    sample: 20,
    cpus: '0',
    clientCpus: '1',
    json: false,
  };
  forEachOption(argv, ({ name, value, need }) => {
    switch (name) {
      case 'tails':
        o.tails = need()
          .split(',')
          .map((n) => positiveInt(name, n));
        return true;
      case 'mb-per-s':
        o.mbPerS = positiveNumber(name, need());
        return true;
      case 'streams':
        o.streams = positiveInt(name, need());
        return true;
      case 'select': {
        const v = need();
        if (v !== 'stream' && v !== 'all') throw new OptionsError('--select: stream or all');
        o.select = v;
        return true;
      }
      case 'seconds':
        o.seconds = positiveNumber(name, need());
        return true;
      case 'sample':
        o.sample = positiveInt(name, need());
        return true;
      case 'cpus':
        o.cpus = need();
        return true;
      case 'client-cpus':
        o.clientCpus = need();
        return true;
      case 'json':
        o.json = value === undefined || value === 'true';
        return true;
      default:
        return false;
    }
  });
  return o;
}

/** One push of `bytes` raw line bytes over the streams; each line says when it was sent. */
function pushBody(seq: number, bytes: number, streams: number): Buffer {
  const lines = Math.max(1, Math.round(bytes / LINE_BYTES));
  const perStream = Math.max(1, Math.ceil(lines / streams));
  const nowMs = Date.now();
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const pad = 'x'.repeat(LINE_BYTES);
  return encodePushProtobuf({
    streams: Array.from({ length: streams }, (_, s) => ({
      labels: [
        { name: 'app', value: 'bench' },
        { name: 'pod', value: `pod-${s}` },
      ],
      entries: Array.from({ length: perStream }, (_, i) => {
        const head = `sent=${nowMs} seq=${seq} i=${i} `;
        return {
          timestampNs: nowNs + BigInt(i),
          line: Buffer.from(head + pad.slice(head.length)),
          structuredMetadata: [],
        };
      }),
    })),
  });
}

interface TailStats {
  messages: number;
  bytes: number;
  dropped: number;
  latencies: number[];
}

const SENT = /"sent=(\d+) /g;

function openTail(
  url: string,
  query: string,
  sampled: boolean,
  stats: TailStats,
): Promise<WebSocket> {
  const params = new URLSearchParams({
    query,
    limit: '1',
    start: String(BigInt(Date.now()) * 1_000_000n),
  });
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/loki/api/v1/tail?${params}`, {
    headers: { 'X-Scope-OrgID': TENANT },
    perMessageDeflate: false,
  });
  ws.on('message', (data: Buffer) => {
    stats.messages++;
    stats.bytes += data.length;
    const text = sampled || data.includes('"dropped_entries"') ? data.toString() : '';
    if (text.includes('"dropped_entries"')) {
      const m = JSON.parse(text) as { dropped_entries?: unknown[] };
      stats.dropped += m.dropped_entries?.length ?? 0;
    }
    if (sampled) {
      const now = Date.now();
      for (const m of text.matchAll(SENT)) stats.latencies.push(now - Number(m[1]));
    }
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

interface PhaseResult {
  tails: number;
  pushedMBps: number;
  deliveredMBps: number;
  p50Ms: number;
  p99Ms: number;
  dropped: number;
  serverCpuPct: number;
  keepsUp: boolean;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function phase(server: ServerProcess, o: FanOutOptions, n: number): Promise<PhaseResult> {
  const stats: TailStats = { messages: 0, bytes: 0, dropped: 0, latencies: [] };
  const sampledStats: TailStats = { messages: 0, bytes: 0, dropped: 0, latencies: [] };
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i++) {
    const query =
      o.select === 'all' ? '{app="bench"}' : `{app="bench", pod="pod-${i % o.streams}"}`;
    const sampled = i < o.sample;
    sockets.push(await openTail(server.url, query, sampled, sampled ? sampledStats : stats));
  }
  const bytesPerPush = (o.mbPerS * 1e6 * PUSH_EVERY_MS) / 1000;
  let pushed = 0;
  let pushingMs = 0;
  let seq = 0;
  const pushFor = async (ms: number, count: boolean): Promise<void> => {
    const start = Date.now();
    const end = start + ms;
    while (Date.now() < end) {
      const tick = Date.now();
      const res = await fetch(`${server.url}/loki/api/v1/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf', 'x-scope-orgid': TENANT },
        body: pushBody(seq++, bytesPerPush, o.streams),
      });
      await res.arrayBuffer();
      if (res.status !== 204) throw new Error(`push: HTTP ${res.status}`);
      if (count) pushed += bytesPerPush;
      const wait = PUSH_EVERY_MS - (Date.now() - tick);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    if (count) pushingMs += Date.now() - start;
  };
  await pushFor(2000, false); // warm up
  for (const s of [stats, sampledStats]) {
    s.messages = s.bytes = s.dropped = 0;
    s.latencies = [];
  }
  const cpu0 = cpuSeconds(server.pid) ?? 0;
  const t0 = Date.now();
  await pushFor(o.seconds * 1000, true);
  await new Promise((r) => setTimeout(r, 500)); // the last frames
  const wallS = (Date.now() - t0) / 1000;
  const cpuS = (cpuSeconds(server.pid) ?? 0) - cpu0;
  for (const ws of sockets) ws.close(1000);
  await new Promise((r) => setTimeout(r, 300));
  const lat = sampledStats.latencies.sort((a, b) => a - b);
  const pushedMBps = pushed / 1e3 / pushingMs;
  const dropped = stats.dropped + sampledStats.dropped;
  const p99Ms = quantile(lat, 0.99);
  return {
    tails: n,
    pushedMBps: Math.round(pushedMBps * 10) / 10,
    deliveredMBps: Math.round(((stats.bytes + sampledStats.bytes) / 1e6 / wallS) * 10) / 10,
    p50Ms: quantile(lat, 0.5),
    p99Ms,
    dropped,
    serverCpuPct: Math.round((cpuS / wallS) * 100),
    keepsUp: pushedMBps >= o.mbPerS * 0.9 && dropped === 0 && p99Ms < 1000,
  };
}

async function run(o: FanOutOptions): Promise<void> {
  // The clients get their own CPU, so the server's is measured, not theirs.
  pinThisProcess(o.clientCpus);
  const server = await ServerProcess.start({
    flags: [...LIFTED_LIMITS, '-querier.max-concurrent-tail-requests=1000000'],
    cpus: o.cpus,
  });
  const results: PhaseResult[] = [];
  try {
    for (const n of o.tails) {
      const r = await phase(server, o, n);
      results.push(r);
      if (!o.json) {
        process.stdout.write(
          `tails=${r.tails} pushed=${r.pushedMBps} MB/s delivered=${r.deliveredMBps} MB/s ` +
            `push→frame p50=${r.p50Ms} ms p99=${r.p99Ms} ms dropped=${r.dropped} ` +
            `server CPU=${r.serverCpuPct}% ${r.keepsUp ? 'keeps up' : 'FALLS BEHIND'}\n`,
        );
      }
    }
  } finally {
    await server.dispose();
  }
  if (o.json) process.stdout.write(`${JSON.stringify({ options: o, results }, null, 2)}\n`);
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
