import {
  OptionsError,
  applyCommonOption,
  forEachOption,
  positiveInt,
  positiveNumber,
} from '../cli-options';

export { OptionsError };

/** Command-line options of `npm run bench:query -- [--flag=value ...]`. */
export interface QueryBenchOptions {
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

export const USAGE = `usage: npm run bench:query -- [options]
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
  forEachOption(argv, (arg) => {
    if (applyCommonOption(o, arg)) return true;
    const { name, need } = arg;
    switch (name) {
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
  return o;
}
