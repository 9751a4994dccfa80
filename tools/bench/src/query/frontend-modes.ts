/** The server configurations `bench:query --frontend` compares, each a store-only restart. */

export const FRONTEND_MODE_NAMES = ['main', 'whole', 'core', 'one', 'two', 'pair', 'warm'] as const;
export type FrontendModeName = (typeof FRONTEND_MODE_NAMES)[number];

export interface FrontendMode {
  readonly name: FrontendModeName;
  /** What the report calls it. */
  readonly label: string;
  /** Server flags on top of the benchmark's own and `-querier.query-store-only=true`. */
  readonly flags: readonly string[];
  /**
   * The results cache is on: the untimed first run is the cold one (it fills the cache) and
   * the timed runs are answered from the cache.
   */
  readonly cached: boolean;
  /** The whole server (every thread) on one CPU, with `taskset`: the one-core figure. */
  readonly oneCpu: boolean;
  /**
   * Copies of each query sent at once (1 when absent); the latency of each copy is a run, and
   * each is given an equal share of the server's CPU time over the group.
   */
  readonly copies?: number;
}

const NO_CACHE = '-querier.cache-results=false';

export const FRONTEND_MODES: Readonly<Record<FrontendModeName, FrontendMode>> = {
  main: {
    name: 'main',
    label: 'event loop (no query workers)',
    flags: ['-querier.query-workers=-1', NO_CACHE],
    cached: false,
    oneCpu: false,
  },
  whole: {
    name: 'whole',
    label: 'whole query (no split, no shards), server on one CPU',
    flags: [
      '-querier.query-workers=1',
      '-querier.split-queries-by-interval=0',
      '-querier.parallelise-shardable-queries=false',
      NO_CACHE,
    ],
    cached: false,
    oneCpu: true,
  },
  core: {
    name: 'core',
    label: 'one query worker, server on one CPU',
    flags: ['-querier.query-workers=1', NO_CACHE],
    cached: false,
    oneCpu: true,
  },
  one: {
    name: 'one',
    label: 'one query worker',
    flags: ['-querier.query-workers=1', NO_CACHE],
    cached: false,
    oneCpu: false,
  },
  two: {
    name: 'two',
    label: 'two query workers',
    flags: ['-querier.query-workers=2', NO_CACHE],
    cached: false,
    oneCpu: false,
  },
  pair: {
    name: 'pair',
    label: 'two whole queries at once, 2 workers',
    // What two workers could reach at best on this machine: each worker runs a whole query,
    // as `whole` does alone, while the other does the same on the other CPU.
    flags: [
      '-querier.query-workers=2',
      '-querier.split-queries-by-interval=0',
      '-querier.parallelise-shardable-queries=false',
      NO_CACHE,
    ],
    cached: false,
    oneCpu: false,
    copies: 2,
  },
  warm: {
    name: 'warm',
    label: 'two query workers, results cache warm',
    flags: ['-querier.query-workers=2', '-querier.cache-results=true'],
    cached: true,
    oneCpu: false,
  },
};
