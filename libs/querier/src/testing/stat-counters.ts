/** Test helper: the counters of a query's stats, to compare two ways of running a query. */
import type { QueryStats, RunQueryResult } from '@logsvc/logql';
import { expect } from 'vitest';
import type { QueryRequest } from '../query-executor';

const SUMMARY_TIMES = [
  'bytesProcessedPerSecond',
  'linesProcessedPerSecond',
  'execTime',
  'queueTime',
];
const STORE_TIMES = ['chunksDownloadTime', 'chunkRefsFetchTime', 'congestionControlLatency'];

/** The stats' counters, without durations and rates (which differ from run to run). */
export function statCounters(stats: QueryStats): unknown {
  const { summary, querier, ingester } = structuredClone(stats);
  for (const k of SUMMARY_TIMES) delete (summary as unknown as Record<string, unknown>)[k];
  for (const store of [querier.store, ingester.store]) {
    for (const k of STORE_TIMES) delete (store as unknown as Record<string, unknown>)[k];
  }
  return { summary, querier, ingester };
}

type Run = (r: QueryRequest) => Promise<RunQueryResult>;

/**
 * A runner that runs a query `here` (the main thread) and `there` (the pool), expects the same
 * answer and counters from both, and returns the pool's result.
 */
export function sameBothWays(here: Run, there: Run): Run {
  return async (r) => {
    const expected = await here(r);
    const actual = await there(r);
    expect(actual.result).toEqual(expected.result);
    expect(statCounters(actual.stats)).toEqual(statCounters(expected.stats));
    return actual;
  };
}
