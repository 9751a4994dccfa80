/** Test helper: the counters of a query's stats, to compare two ways of running a query. */
import type { QueryStats } from '@logsvc/logql';

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
