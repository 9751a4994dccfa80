// Logs Drilldown's field list against Loki: the same mixed lines pushed to logsvc and a
// reference Loki 3.4 binary, then `/loki/api/v1/detected_fields` timed on each, alternately.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePushJson } from '@logsvc/push';
import { bool, forEachOption, positiveInt, runCli } from '../cli-options';
import { LogGenerator } from '../gen';
import { ServerProcess } from '../ingest/server-process';
import { DEFAULT_LOKI_BINARY, LokiProcess, requireLokiBinary } from './loki-process';

const USAGE = `usage: npm run bench:detected-fields -- [--loki=PATH] [--lines=N] [--rounds=N] [--cpus=LIST] [--flushed]
  Starts logsvc (this checkout's build) and Loki (default ${DEFAULT_LOKI_BINARY}), pushes N
  (default 4000) mixed nginx/JSON/logfmt lines over 30 minutes to both, then asks each for
  /loki/api/v1/detected_fields of a few queries, --rounds times (default 5) in turn, and prints
  the median and best time per query and server. --cpus pins both servers to the same CPUs
  (default: not pinned). --flushed flushes both servers' ingesters first, so the lines are read
  from their stores. Stops by itself.`;

const TENANT = 'bench-detected';
const SPAN_MS = 30 * 60_000;
const STREAMS = 8;

/** What Drilldown asks first: every field of a service, then of a filtered or parsed query. */
const QUERIES: readonly string[] = [
  '{env=~".+"}',
  '{app="checkout"}',
  '{env=~".+"} |= "e"',
  '{env=~".+"} | logfmt',
];

interface Options {
  readonly loki: string;
  readonly lines: number;
  readonly rounds: number;
  readonly cpus: string | null;
  readonly flushed: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  let loki = DEFAULT_LOKI_BINARY;
  let lines = 4000;
  let rounds = 5;
  let cpus: string | null = null;
  let flushed = false;
  forEachOption(argv, (arg) => {
    if (arg.name === 'loki') loki = arg.need();
    else if (arg.name === 'lines') lines = positiveInt(arg.name, arg.need());
    else if (arg.name === 'rounds') rounds = positiveInt(arg.name, arg.need());
    else if (arg.name === 'cpus') cpus = arg.need();
    else if (arg.name === 'flushed') flushed = bool(arg.name, arg.value);
    else return false;
    return true;
  });
  return { loki, lines, rounds, cpus, flushed };
}

function pushBody(startMs: number, lines: number): Buffer {
  const perStream = Math.ceil(lines / STREAMS);
  const gen = new LogGenerator({
    seed: 7,
    streams: STREAMS,
    startMs,
    mixedStreams: true,
    spacingMs: SPAN_MS / perStream,
    structuredMetadata: true,
  });
  const { request } = gen.batch(
    gen.streams.map((_, i) => i),
    perStream,
  );
  return encodePushJson(request);
}

async function push(url: string, body: Buffer): Promise<void> {
  const res = await fetch(`${url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Scope-OrgID': TENANT },
    body,
  });
  if (res.status !== 204) throw new Error(`push to ${url}: ${res.status} ${await res.text()}`);
}

/** One request's time in milliseconds, and how many fields it listed. */
async function timeOnce(url: string, query: string, range: URLSearchParams) {
  const params = new URLSearchParams(range);
  params.set('query', query);
  const t = process.hrtime.bigint();
  const res = await fetch(`${url}/loki/api/v1/detected_fields?${params.toString()}`, {
    headers: { 'X-Scope-OrgID': TENANT },
  });
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (res.status !== 200) throw new Error(`${url} ${query}: ${res.status} ${text.slice(0, 200)}`);
  const fields = (JSON.parse(text) as { fields?: unknown[] }).fields?.length ?? 0;
  return { ms, fields };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function run(o: Options): Promise<void> {
  const binary = requireLokiBinary(o.loki);
  if (binary === undefined) return;
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-detected-'));
  const config = join(dir, 'logsvc.yaml');
  writeFileSync(config, 'limits_config:\n  reject_old_samples: false\n');
  const [logsvc, loki] = await Promise.all([
    ServerProcess.start({
      dataDir: join(dir, 'data'),
      flags: [`-config.file=${config}`],
      cpus: o.cpus,
    }),
    LokiProcess.start({ binary, wal: false, cpus: o.cpus }),
  ]);
  try {
    const endMs = Date.now();
    const startMs = endMs - SPAN_MS;
    const body = pushBody(startMs, o.lines);
    await push(logsvc.url, body);
    await push(loki.url, body);
    if (o.flushed) {
      const res = await fetch(`${logsvc.url}/flush`, { method: 'POST' });
      if (res.status !== 204 && res.status !== 200) throw new Error(`logsvc /flush: ${res.status}`);
      await loki.flushAndWait();
    }
    const range = new URLSearchParams({
      start: String(BigInt(startMs - 60_000) * 1_000_000n),
      end: String(BigInt(endMs + 60_000) * 1_000_000n),
    });
    const servers = [
      ['logsvc', logsvc.url],
      ['loki', loki.url],
    ] as const;
    process.stdout.write(
      `detected_fields over ${o.lines} lines in ${STREAMS} streams, ${o.rounds} rounds` +
        `${o.cpus === null ? '' : `, servers on CPUs ${o.cpus}`}` +
        `${o.flushed ? ', read from the stores after a flush' : ''}\n`,
    );
    for (const query of QUERIES) {
      // One warm-up request each (compiles the query's code paths), not timed.
      for (const [, url] of servers) await timeOnce(url, query, range);
      const times: Record<string, number[]> = { logsvc: [], loki: [] };
      const fields: Record<string, number> = {};
      for (let r = 0; r < o.rounds; r++) {
        for (const [name, url] of servers) {
          const { ms, fields: n } = await timeOnce(url, query, range);
          times[name].push(ms);
          fields[name] = n;
        }
      }
      for (const [name] of servers) {
        const t = times[name];
        process.stdout.write(
          `${query.padEnd(24)} ${name.padEnd(6)} median ${median(t).toFixed(1).padStart(7)} ms` +
            `  best ${Math.min(...t)
              .toFixed(1)
              .padStart(7)} ms  fields ${fields[name]}\n`,
        );
      }
    }
  } finally {
    await Promise.all([logsvc.stop(30_000), loki.stop(30_000)]);
    await Promise.all([logsvc.dispose(), loki.dispose()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
