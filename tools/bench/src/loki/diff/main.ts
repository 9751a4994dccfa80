// Differential check against Loki: the same generated data pushed to logsvc and a reference
// Loki 3.4 binary, the same queries sent to both, and the answers compared.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bool, forEachOption, nonNegativeNumber, runCli } from '../../cli-options';
import { sortLabels } from '@logsvc/api';
import { encodePushJson } from '@logsvc/push';
import { LogGenerator } from '../../gen';
import { ServerProcess } from '../../ingest/server-process';
import { DEFAULT_LOKI_BINARY, LokiProcess, requireLokiBinary } from '../loki-process';
import { type Answer, type DiffQuery, type PushProbe, firstDifference } from './compare';
import { CATEGORIZED, DIFF_QUERIES } from './corpus';
import { EDGE_PROBES } from './edge-lines';
import { MULTI_TENANT_PROBES, OTHER_TENANT, otherTenantBody } from './multi-tenant';
import { mutatedQueries } from './mutations';
import { AFTER_FLUSH_PROBES, PARITY_PROBES, RULE_PROBES } from './parity-probes';
import { OTLP_PROBES, PUSH_PROBES } from './push-probes';
import { tailSession } from './tail-probe';

const USAGE = `usage: npm run diff:loki -- [--loki=PATH] [--only=TEXT] [--show-known] [--mutations=N [--seed=S]]
  Starts logsvc (this checkout's build) and Loki (default ${DEFAULT_LOKI_BINARY}), pushes the
  same mixed nginx/JSON/logfmt lines to both (9 streams without and 9 with trace_id structured
  metadata, 40 minutes), sends each query of tools/bench/src/loki/diff/corpus.ts and each push
  of push-probes.ts (tenant diff-push) to both, asks the queries of multi-tenant.ts as two tenants
  (diff|diff-other), and prints the answers that differ. Differences
  the corpus marks as known are counted, and printed with --show-known. --only keeps the
  requests whose description contains TEXT. --mutations=N then also sends N random mutations of
  the corpus's range queries (a character deleted, a LogQL token inserted; --seed, default 1,
  repeats a run) and prints those that differ; they do not change the exit code.`;

const TENANT = 'diff';
/** Where the push probes go: their accepted lines must not change the queried data. */
const PUSH_TENANT = 'diff-push';
const PUSH = '/loki/api/v1/push';
/** The path of a corpus request that names none. */
const QUERY_RANGE = '/loki/api/v1/query_range';
const SPAN_MS = 40 * 60_000;
/** Both rulers load a posted rule group within seconds (the rules probes list it). */
const RULER_POLL = '-ruler.poll-interval=1s';
const LINES_PER_STREAM = 400;

// Loki's limits as the bench's Loki config sets them, so neither server stops short and both
// refuse the same pushes.
const LOGSVC_CONFIG = `limits_config:
  reject_old_samples: false
  max_query_series: 100000
  max_entries_limit_per_query: 100000
  query_timeout: 5m
querier:
  multi_tenant_queries_enabled: true
`;

interface Options {
  readonly loki: string;
  readonly only: string | undefined;
  readonly showKnown: boolean;
  readonly mutations: number;
  readonly seed: number;
}

function parseOptions(argv: readonly string[]): Options {
  let loki = DEFAULT_LOKI_BINARY;
  let only: string | undefined;
  let showKnown = false;
  let mutations = 0;
  let seed = 1;
  forEachOption(argv, (arg) => {
    if (arg.name === 'loki') loki = arg.need();
    else if (arg.name === 'only') only = arg.need();
    else if (arg.name === 'show-known') showKnown = bool(arg.name, arg.value);
    else if (arg.name === 'mutations') mutations = nonNegativeNumber(arg.name, arg.need());
    else if (arg.name === 'seed') seed = nonNegativeNumber(arg.name, arg.need());
    else return false;
    return true;
  });
  return { loki, only, showKnown, mutations, seed };
}

/** Loki's JSON push body: the generator's mixed streams, with or without metadata. */
function pushBody(startMs: number, metadata: boolean): Buffer {
  const gen = new LogGenerator({
    seed: 11,
    streams: 9,
    startMs,
    mixedStreams: true,
    spacingMs: SPAN_MS / LINES_PER_STREAM,
    structuredMetadata: metadata,
  });
  const { request } = gen.batch(
    gen.streams.map((_, i) => i),
    LINES_PER_STREAM,
  );
  if (!metadata) return encodePushJson(request);
  // The streams with metadata get their own label sets beside the ones without.
  const streams = request.streams.map((s) => ({
    ...s,
    labels: sortLabels([...s.labels, { name: 'meta', value: 'yes' }]),
  }));
  return encodePushJson({ streams });
}

const HOUR_MS = 3_600_000;

/**
 * Where the data and the queried range end: now, unless the range would then cross a clock
 * hour, and otherwise just before the hour began. Loki 3.4 splits a log query at hour
 * boundaries, and when a split boundary falls among the newest lines a limited query asks for,
 * its merge returns an older line in place of a newer one: the answer then depends on the minute
 * of the run, not on the query.
 */
function windowEnd(now: number): number {
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
  return now - SPAN_MS - 2 * 60_000 >= hour ? now : hour - 1;
}

async function push(url: string, body: Buffer, tenant = TENANT): Promise<void> {
  const res = await fetchFrom(`${url}/loki/api/v1/push`, `push as ${tenant}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Scope-OrgID': tenant },
    body,
  });
  if (res.status !== 204) throw new Error(`push to ${url}: ${res.status} ${await res.text()}`);
}

/** `POST /flush` on logsvc, which answers once its ingesters flushed. */
async function flushLogsvc(url: string): Promise<void> {
  const res = await fetchFrom(`${url}/flush`, 'flush logsvc', { method: 'POST' });
  if (res.status !== 204 && res.status !== 200) {
    throw new Error(`logsvc /flush: ${res.status} ${await res.text()}`);
  }
}

/** fetch, with the server and the request named when it fails (a refused or reset connection). */
async function fetchFrom(url: string, what: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    throw new Error(`${what} (${new URL(url).origin})`, { cause: err });
  }
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Loki answers most errors in plain text.
  }
  return { status: res.status, body };
}

/** Sends a push probe; its pushes go to their own tenant, away from the queried data. */
async function sendPush(url: string, q: DiffQuery & { push: PushProbe }, nowNs: bigint) {
  const headers: Record<string, string> = {
    'content-type': q.push.contentType ?? 'application/json',
    'X-Scope-OrgID': PUSH_TENANT,
  };
  if (q.push.contentEncoding !== undefined) headers['content-encoding'] = q.push.contentEncoding;
  const res = await fetchFrom(`${url}${q.path ?? PUSH}`, describe(q), {
    method: 'POST',
    headers,
    body: q.push.body(nowNs),
  });
  return answerOf(res);
}

async function ask(
  url: string,
  q: DiffQuery,
  range: { start: string; end: string },
  nowNs: bigint,
): Promise<Answer> {
  if (q.push !== undefined) return sendPush(url, { ...q, push: q.push }, nowNs);
  if (q.waitMs !== undefined) await new Promise((r) => setTimeout(r, q.waitMs));
  const path = q.path ?? QUERY_RANGE;
  const params: Record<string, string> = { start: range.start, end: range.end };
  if (path.endsWith('/query')) {
    delete params.start;
    params.time = range.end;
  }
  if (q.query !== undefined) params.query = q.query;
  for (const [k, v] of Object.entries(q.params ?? {})) params[k] = String(v);
  const res = await fetchFrom(
    `${url}${path}?${new URLSearchParams(params).toString()}`,
    describe(q),
    {
      method: q.method ?? 'GET',
      headers: { 'X-Scope-OrgID': q.pushTenant === true ? PUSH_TENANT : TENANT, ...q.headers },
    },
  );
  return answerOf(res);
}

/** The two texts from a little before where they first differ, so long answers show the change. */
function aroundDifference(a: string, b: string, width = 1200): [string, string] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 300);
  const cut = (s: string) => (from > 0 ? '…' : '') + s.slice(from, from + width);
  return [cut(a), cut(b)];
}

function describe(q: DiffQuery): string {
  if (q.push !== undefined) return `POST ${q.path ?? PUSH} ${q.push.name}`;
  const params = q.params === undefined ? '' : ` ${JSON.stringify(q.params)}`;
  const tenants = q.headers?.['X-Scope-OrgID'];
  const as = tenants === undefined ? '' : `[as ${tenants}] `;
  const method = q.method === undefined ? '' : `${q.method} `;
  return `${as}${method}${q.path ?? QUERY_RANGE} ${q.query ?? ''}${params}`;
}

/** Tail queries: what each server streams while the same lines are pushed to both. */
const TAIL_QUERIES: readonly { readonly query: string; readonly categorize?: boolean }[] = [
  { query: '{app="tailed"}' },
  { query: '{app="tailed"} |= "b" | logfmt' },
  { query: '{app="tailed"} | logfmt | n > 2 | line_format "{{.msg}}"' },
  { query: '{app="tailed"} |= ' },
  { query: 'rate({app="tailed"}[1m])' },
  // Again, now with the earlier rounds' lines as past entries.
  { query: '{app="tailed"}' },
  // Labels in categories (Grafana's header): stream labels alone, the others per entry.
  { query: '{app="tailed"}', categorize: true },
  { query: '{app="tailed"} | logfmt | n > 1 | label_format app="x"', categorize: true },
];
const TAIL_TENANT = 'diff-tail';

/** Five logfmt lines for the tailed stream, stamped now. */
function tailBody(round: number): Buffer {
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  // Lines 4 and 5 carry structured metadata of their own.
  const values = [1, 2, 3, 4, 5].map((n) => [
    String(nowNs + BigInt(n)),
    `n=${n} msg=${n % 2 === 0 ? 'b-even' : 'odd'} round=${round}`,
    ...(n >= 4 ? [{ trace_id: `t${n}` }] : []),
  ]);
  return Buffer.from(JSON.stringify({ streams: [{ stream: { app: 'tailed' }, values }] }));
}

/** Sends the corpus's mutations to both servers; prints those answered differently. */
async function compareMutations(
  logsvc: string,
  loki: string,
  range: { start: string; end: string },
  nowNs: bigint,
  o: Options,
): Promise<void> {
  const queries = mutatedQueries(DIFF_QUERIES, o.mutations, o.seed);
  let different = 0;
  for (const q of queries) {
    const [a, b] = await Promise.all([ask(logsvc, q, range, nowNs), ask(loki, q, range, nowNs)]);
    const diff = firstDifference(a, b);
    if (diff === null) continue;
    different++;
    const [left, right] = aroundDifference(diff.left, diff.right);
    process.stdout.write(
      `\nMUTATION DIFFERS: ${JSON.stringify(q.query)}\n` +
        `  logsvc ${a.status}: ${left}\n  loki   ${b.status}: ${right}\n`,
    );
  }
  process.stdout.write(
    `\n${queries.length} mutations (seed ${o.seed}): ${queries.length - different} same, ` +
      `${different} different\n`,
  );
}

/** Runs each tail query on both servers at once; counts as run() does. */
async function compareTails(
  urls: { logsvc: string; loki: string },
  o: Options,
): Promise<{ same: number; different: number; total: number }> {
  let same = 0;
  let different = 0;
  const queries = TAIL_QUERIES.filter(
    (q) => o.only === undefined || `tail ${q.query}`.includes(o.only),
  );
  for (const [round, { query, categorize }] of queries.entries()) {
    const body = tailBody(round);
    const headers = categorize ? CATEGORIZED : {};
    const [a, b] = await Promise.all(
      [urls.logsvc, urls.loki].map((url) =>
        tailSession(url, TAIL_TENANT, query, () => push(url, body, TAIL_TENANT), 2500, headers),
      ),
    );
    if (JSON.stringify(a) === JSON.stringify(b)) {
      same++;
      continue;
    }
    different++;
    const [left, right] = aroundDifference(JSON.stringify(a), JSON.stringify(b));
    const flags = categorize ? ' (categorize-labels)' : '';
    process.stdout.write(
      `\nDIFFERENT: tail ${query}${flags}\n  logsvc: ${left}\n  loki  : ${right}\n`,
    );
  }
  return { same, different, total: queries.length };
}

async function run(o: Options): Promise<void> {
  const binary = requireLokiBinary(o.loki);
  if (binary === undefined) return;
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-diff-'));
  const config = join(dir, 'logsvc.yaml');
  writeFileSync(config, LOGSVC_CONFIG);
  const [logsvc, loki] = await Promise.all([
    ServerProcess.start({
      dataDir: join(dir, 'data'),
      flags: [`-config.file=${config}`, RULER_POLL],
    }),
    LokiProcess.start({
      binary,
      wal: true,
      writableRules: true,
      flags: ['-querier.multi-tenant-queries-enabled=true', RULER_POLL],
    }),
  ]);
  try {
    const now = Date.now();
    const endMs = windowEnd(now);
    const startMs = endMs - SPAN_MS - 60_000;
    for (const metadata of [false, true]) {
      const body = pushBody(startMs, metadata);
      await push(logsvc.url, body);
      await push(loki.url, body);
    }
    const other = otherTenantBody(startMs);
    await push(logsvc.url, other, OTHER_TENANT);
    await push(loki.url, other, OTHER_TENANT);
    const range = {
      start: String(BigInt(startMs - 60_000) * 1_000_000n),
      end: String(BigInt(endMs) * 1_000_000n),
    };
    const nowNs = BigInt(now) * 1_000_000n;
    // The push probes store lines stamped now: their queries ask the last hour up to now, also
    // when the main data lies before the hour (else both servers would answer nothing).
    const probeRange = {
      start: String(BigInt(now - HOUR_MS) * 1_000_000n),
      end: String(BigInt(now + 60_000) * 1_000_000n),
    };
    const queries = [
      ...DIFF_QUERIES,
      ...MULTI_TENANT_PROBES,
      ...PUSH_PROBES,
      ...OTLP_PROBES,
      ...EDGE_PROBES,
      ...PARITY_PROBES,
      ...RULE_PROBES,
    ].filter((q) => o.only === undefined || describe(q).includes(o.only));
    const afterFlush = AFTER_FLUSH_PROBES.filter(
      (q) => o.only === undefined || `after flush ${describe(q)}`.includes(o.only),
    );
    let same = 0;
    let known = 0;
    let different = 0;
    for (const [i, q] of [...queries, ...afterFlush].entries()) {
      if (i === queries.length) {
        // The last phase reads what both servers flushed to their stores.
        await Promise.all([flushLogsvc(logsvc.url), loki.flushAndWait()]);
      }
      const r = q.pushTenant === true ? probeRange : range;
      const [a, b] = await Promise.all([ask(logsvc.url, q, r, nowNs), ask(loki.url, q, r, nowNs)]);
      const diff = firstDifference(a, b);
      if (diff === null) {
        same++;
        continue;
      }
      if (q.known !== undefined) known++;
      else different++;
      if (q.known !== undefined && !o.showKnown) continue;
      const [left, right] = aroundDifference(diff.left, diff.right);
      process.stdout.write(
        `\n${q.known === undefined ? 'DIFFERENT' : `KNOWN (${q.known})`}: ` +
          `${i >= queries.length ? 'after flush ' : ''}${describe(q)}\n` +
          `  logsvc ${a.status}: ${left}\n  loki   ${b.status}: ${right}\n`,
      );
    }
    const tails = await compareTails({ logsvc: logsvc.url, loki: loki.url }, o);
    same += tails.same;
    different += tails.different;
    process.stdout.write(
      `\n${queries.length + afterFlush.length + tails.total} requests (${tails.total} tail sessions): ${same} same, ` +
        `${known} known differences, ${different} other differences\n`,
    );
    if (o.mutations > 0) await compareMutations(logsvc.url, loki.url, range, nowNs, o);
    if (different > 0) process.exitCode = 1;
  } finally {
    await Promise.all([logsvc.stop(30_000), loki.stop(30_000)]);
    await Promise.all([logsvc.dispose(), loki.dispose()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

void runCli(process.argv.slice(2), USAGE, parseOptions, run);
