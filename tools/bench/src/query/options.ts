import {
  OptionsError,
  applyCommonOption,
  applyLokiOption,
  forEachOption,
  positiveInt,
  positiveNumber,
} from '../cli-options';
import { DEFAULT_LOKI_BINARY } from '../loki/loki-process';

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
  /** Raw line bytes prepared and pushed before querying. */
  totalBytes: number;
  /** Upper bound of the ingest phase. */
  ingestDurationMs: number;
  streams: number;
  /** Time span the data covers (each stream's lines are spread over it). */
  spanMs: number;
  /** Timed runs per query (after one untimed warm-up run). */
  runs: number;
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
}

export const DEFAULT_OPTIONS: QueryBenchOptions = {
  data: 'default',
  phase: 'store',
  compareLoki: false,
  lokiBinary: DEFAULT_LOKI_BINARY,
  totalBytes: 300 * 1e6,
  ingestDurationMs: 60_000,
  streams: 200,
  spanMs: 60 * 60_000,
  runs: 5,
  queryBudgetMs: 60_000,
  seed: 42,
  serverFlags: [],
  only: [],
  json: false,
};

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
                         the same data, and run every query on both, alternating; prints both
                         and the ratio. Skipped with a note when the binary is missing
  --loki=PATH            the Loki binary for --compare-loki (implies it)
  --mb=MB                raw log line megabytes to ingest before querying (default 300)
  --ingest-duration=S    stop ingesting after this long (default 60)
  --streams=N            distinct streams (default 200)
  --span=MINUTES         time span the data covers (default 60)
  --runs=N               timed runs per query, after one warm-up (default 5)
  --query-budget=S       stop a query's runs after this long (default 60)
  --seed=N               generator seed (default 42)
  --only=NAME            run only queries whose name contains NAME (repeatable)
  --cpu-prof=DIR         run the query server under node --cpu-prof, profile written to DIR
  --server-flag=FLAG     extra server flag, repeatable (e.g. --server-flag=-log.level=info)
  --json                 print the result as JSON`;

export function parseOptions(argv: readonly string[]): QueryBenchOptions {
  const o: QueryBenchOptions = { ...DEFAULT_OPTIONS, serverFlags: [], only: [] };
  const given = new Set<string>();
  forEachOption(argv, (arg) => {
    given.add(arg.name);
    if (applyCommonOption(o, arg) || applyLokiOption(o, arg)) return true;
    const { name, need } = arg;
    switch (name) {
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
      case 'query-budget':
        o.queryBudgetMs = positiveNumber(name, need()) * 1000;
        break;
      case 'only':
        o.only.push(need());
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
  // The instant queries of the mixed set look back 3 h; Loki queries its ingesters 3 h back.
  if (o.data === 'mixed' && o.spanMs > 170 * 60_000)
    throw new OptionsError('--span must be at most 170 minutes with --data=mixed');
  return o;
}
