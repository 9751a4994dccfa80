import {
  OptionsError,
  applyCommonOption,
  applyLokiOption,
  applyVictoriaLogsOption,
  bool,
  cpusOption,
  forEachOption,
  positiveInt,
  positiveNumber,
} from '../cli-options';
import { DEFAULT_LOKI_BINARY } from '../loki/loki-process';
import { DEFAULT_VL_BINARY } from '../victorialogs/vl-process';
import { FRONTEND_MODE_NAMES, type FrontendModeName } from './frontend-modes';

export { OptionsError };

/** `default`: the ingest bench's data; `mixed`: nginx + JSON + logfmt lines in every stream. */
export type QueryDataSet = 'default' | 'mixed';
/** Where the queries read: the ingesters' memory, flushed chunks, or one after the other. */
export type QueryPhase = 'ingester' | 'store' | 'both';

/** Command-line options of `npm run bench:query -- [--flag=value ...]`. */
export interface QueryBenchOptions {
  data: QueryDataSet;
  phase: QueryPhase;
  /** Also run Loki with the same data and queries, alternating with logsvc. */
  compareLoki: boolean;
  /** The Loki binary for compareLoki. */
  lokiBinary: string;
  /** Also run VictoriaLogs with the same data and the queries' LogsQL equivalents. */
  compareVictoriaLogs: boolean;
  vlBinary: string;
  /** `auto` (every server on the last CPU, the load on the others), `all`, or a CPU list. */
  serverCpus: string;
  /** Every push client sends lines of every stream (agents' way); false: each owns its own. */
  interleave: boolean;
  /** Raw line bytes prepared and pushed before querying. */
  totalBytes: number;
  /** Upper bound of the ingest phase. */
  ingestDurationMs: number;
  streams: number;
  /** Time span the data covers (each stream's lines are spread over it). */
  spanMs: number;
  /** Timed runs per query, after `warmup` untimed runs on each server. */
  runs: number;
  /**
   * Untimed runs of each query on each server before its timed runs. A Node server compiles a
   * query's hot code in background threads over its first ten or so runs (a log query costs
   * about twice its steady CPU until then), which a long-running server has done already.
   */
  warmup: number;
  /** Stop timing a query after this long, even if fewer runs were made. */
  queryBudgetMs: number;
  seed: number;
  /** Directory for the query server's `--cpu-prof` output. */
  cpuProfDir?: string;
  /** Extra flags passed to the server. */
  serverFlags: string[];
  /** Only the queries whose names contain one of these (all when empty). */
  only: string[];
  json: boolean;
  /**
   * The query frontend benchmark (issue 15): the server restarted store-only once per mode of
   * `modes` and round, the metric queries of `frontendQueries` timed in each.
   */
  frontend: boolean;
  /** --frontend: the modes, in the order they run in every round. */
  modes: FrontendModeName[];
  /** --frontend: times every mode is run (restart included), modes interleaved. */
  rounds: number;
  /** How long before the run the data ends (older than `query_ingesters_within` for --frontend). */
  endAgoMs: number;
}

export const DEFAULT_OPTIONS: QueryBenchOptions = {
  data: 'default',
  phase: 'store',
  compareLoki: false,
  lokiBinary: DEFAULT_LOKI_BINARY,
  compareVictoriaLogs: false,
  vlBinary: DEFAULT_VL_BINARY,
  serverCpus: 'auto',
  interleave: true,
  totalBytes: 300 * 1e6,
  ingestDurationMs: 60_000,
  streams: 200,
  spanMs: 60 * 60_000,
  runs: 5,
  warmup: 1,
  queryBudgetMs: 60_000,
  seed: 42,
  serverFlags: [],
  only: [],
  json: false,
  frontend: false,
  modes: [...FRONTEND_MODE_NAMES],
  rounds: 1,
  endAgoMs: 5 * 60_000,
};

/**
 * What --frontend changes unless --span is given: six hours of data (six 1 h splits) ending
 * 3 h 10 min before the run, so every split is older than `querier.query_ingesters_within`.
 */
export const FRONTEND_DEFAULTS = { spanMs: 6 * 3_600_000, endAgoMs: 190 * 60_000 } as const;

/** What `--data=mixed` changes unless --mb, --streams or --phase are given. */
export const MIXED_DEFAULTS = { totalBytes: 57 * 1e6, streams: 100, phase: 'both' } as const;

export const USAGE = `usage: npm run bench:query -- [options]
  --data=SET             default: the ingest bench's data and queries; mixed: 100 streams that
                         each mix nginx, JSON (with latency_ms) and logfmt lines, 57 MB, and the
                         issue 13 queries (instant logfmt/json grouped counts, |= and |~ counts,
                         topk rate, a log query with a limit)
  --phase=PHASE          store: flush, restart store-only, query flushed chunks (default for
                         --data=default); ingester: query the data still in the ingesters (no
                         flush, no restart); both: ingester, then store (default for mixed)
  --compare-loki         also start Loki (~/.cache/loki-ref/loki, -target=all, WAL on), push it
                         the same data, and run every query on both, alternating, each timed
                         run once both servers are idle (≤ 10 % of a core over 100 ms, at most
                         3 s); prints both and the ratio. Skipped with a note when the binary is
                         missing
  --loki=PATH            the Loki binary for --compare-loki (implies it)
  --compare-victorialogs also start VictoriaLogs (~/.cache/vl-ref/victoria-logs), push it the
                         same bodies on /insert/loki/api/v1/push, and time each query's LogsQL
                         equivalent (see queries.ts) alternating with the others; checks the
                         answers agree (line counts, sums of counts). Skipped with a note when
                         the binary is missing
  --victorialogs=PATH    the VictoriaLogs binary (implies --compare-victorialogs)
  --server-cpus=CPUS     auto: every server pinned to the last CPU, the push load on the others
                         (default, with two or more CPUs and taskset); all: no pinning; or a
                         taskset CPU list for the servers
  --interleave=false     each push client owns its streams (default: every client sends every
                         stream's lines in turn, so a stream's entries arrive from several
                         clients, some out of order, as from agents)
  --mb=MB                raw log line megabytes to ingest before querying (default 300)
  --ingest-duration=S    stop ingesting after this long (default 60)
  --streams=N            distinct streams (default 200)
  --span=MINUTES         time span the data covers (default 60)
  --runs=N               timed runs per query, after the warm-up (default 5)
  --warmup=N             untimed runs of each query on each server first (default 1); about 15
                         reach logsvc's steady state (its JIT compiles the query's hot code in
                         background threads over the first runs)
  --query-budget=S       stop a query's runs after this long (default 60)
  --seed=N               generator seed (default 42)
  --only=NAME            run only queries whose name contains NAME (repeatable)
  --cpu-prof=DIR         run the query server under node --cpu-prof, profile written to DIR
  --server-flag=FLAG     extra server flag, repeatable (e.g. --server-flag=-log.level=info)
  --json                 print the result as JSON
  --frontend             the query frontend benchmark (issue 15): ingest (by default 300 MB over
                         6 h ending 3 h 10 min ago), flush, then per mode restart the server
                         store-only on the same data and time the frontend's metric queries
                         (sum by level rate, sum by level logfmt count, topk count_over_time) as
                         query_range over the whole data: main = -querier.query-workers=-1
                         (sub-queries on the event loop); whole = the query neither split nor
                         sharded, 1 query worker thread, the server on one CPU (taskset): the
                         one-core figure without the frontend; core = 1 query worker thread, the
                         server on one CPU; one / two = 1 / 2 query worker threads; pair =
                         two copies of the whole query at once on 2 workers (what two workers
                         could reach at best on the machine); results cache off in all of
                         these; warm = 2 workers, cache on, one cold run then warm runs.
                         Prints latency, MB/s, server CPU, the speed-ups,
                         splits/shards/sub-queries and the cache hits
  --modes=LIST           --frontend: modes to run, in order (default main,whole,core,one,two,
                         pair,warm)
  --rounds=N             --frontend: run every mode N times, interleaved (default 1)`;

export function parseOptions(argv: readonly string[]): QueryBenchOptions {
  const o: QueryBenchOptions = { ...DEFAULT_OPTIONS, serverFlags: [], only: [] };
  const given = new Set<string>();
  forEachOption(argv, (arg) => {
    given.add(arg.name);
    if (applyCommonOption(o, arg) || applyLokiOption(o, arg) || applyVictoriaLogsOption(o, arg))
      return true;
    const { name, need } = arg;
    switch (name) {
      case 'server-cpus':
        o.serverCpus = cpusOption(name, need());
        break;
      case 'interleave':
        o.interleave = bool(name, arg.value);
        break;
      case 'data': {
        const v = need();
        if (v !== 'default' && v !== 'mixed')
          throw new OptionsError(`--data must be default or mixed, got "${v}"`);
        o.data = v;
        break;
      }
      case 'phase': {
        const v = need();
        if (v !== 'ingester' && v !== 'store' && v !== 'both')
          throw new OptionsError(`--phase must be ingester, store or both, got "${v}"`);
        o.phase = v;
        break;
      }
      case 'ingest-duration':
        o.ingestDurationMs = positiveNumber(name, need()) * 1000;
        break;
      case 'span':
        o.spanMs = positiveNumber(name, need()) * 60_000;
        break;
      case 'runs':
        o.runs = positiveInt(name, need());
        break;
      case 'warmup':
        o.warmup = positiveInt(name, need());
        break;
      case 'query-budget':
        o.queryBudgetMs = positiveNumber(name, need()) * 1000;
        break;
      case 'only':
        o.only.push(need());
        break;
      case 'frontend':
        o.frontend = bool(name, arg.value);
        break;
      case 'modes':
        o.modes = parseModes(need());
        break;
      case 'rounds':
        o.rounds = positiveInt(name, need());
        break;
      default:
        return false;
    }
    return true;
  });
  if (o.spanMs > 24 * 3_600_000) throw new OptionsError('--span must be at most 1440 minutes');
  if (o.data === 'mixed') {
    if (!given.has('mb')) o.totalBytes = MIXED_DEFAULTS.totalBytes;
    if (!given.has('streams')) o.streams = MIXED_DEFAULTS.streams;
    if (!given.has('phase')) o.phase = MIXED_DEFAULTS.phase;
  }
  if (o.frontend) checkFrontend(o, given);
  else if (given.has('modes') || given.has('rounds'))
    throw new OptionsError('--modes and --rounds need --frontend');
  // The instant queries of the mixed set look back 3 h; Loki queries its ingesters 3 h back.
  if (o.data === 'mixed' && o.spanMs > 170 * 60_000)
    throw new OptionsError('--span must be at most 170 minutes with --data=mixed');
  return o;
}

/** `main,one,two,warm` (any subset, any order, no repeats). */
export function parseModes(text: string): FrontendModeName[] {
  const modes = text.split(',').map((m) => m.trim());
  for (const m of modes)
    if (!(FRONTEND_MODE_NAMES as readonly string[]).includes(m))
      throw new OptionsError(`--modes takes ${FRONTEND_MODE_NAMES.join(', ')}; got "${m}"`);
  if (new Set(modes).size !== modes.length)
    throw new OptionsError(`--modes names a mode twice: "${text}"`);
  return modes as FrontendModeName[];
}

/** --frontend reads flushed chunks of the default data set with logsvc alone. */
function checkFrontend(o: QueryBenchOptions, given: ReadonlySet<string>): void {
  if (o.data !== 'default') throw new OptionsError('--frontend runs on --data=default only');
  if (o.compareLoki) throw new OptionsError('--frontend does not compare with Loki');
  if (o.compareVictoriaLogs)
    throw new OptionsError('--frontend does not compare with VictoriaLogs');
  if (given.has('phase') && o.phase !== 'store')
    throw new OptionsError('--frontend queries flushed chunks only (--phase=store)');
  if (!given.has('span')) o.spanMs = FRONTEND_DEFAULTS.spanMs;
  o.endAgoMs = FRONTEND_DEFAULTS.endAgoMs;
}
