import type { IngesterQueryClient, IngesterReadStats, IngesterSelect } from './client';
import { type MemorySelect, type MemorySnapshot, snapshotToStreams } from './memory-snapshot';
import { newQueryStats, queryStreams, type StreamQueryResult } from './query';

/** Asks the thread that runs the ingester for a snapshot of one select's streams. */
export type MemoryFetch = (tenant: string, select: MemorySelect) => Promise<MemorySnapshot>;

/**
 * The in-process ingester as a query worker thread reads it: each query fetches a snapshot of
 * the streams it selects (`LocalIngesterClient.snapshot` on the main thread) and reads the
 * rebuilt chunks with the ingester's own query code, so entries and stats are the ones a query
 * on the main thread gets at the moment the snapshot is taken.
 */
export class SnapshotIngesterClient implements IngesterQueryClient {
  constructor(private readonly fetch: MemoryFetch) {}

  async query(
    tenant: string,
    select: IngesterSelect,
    stats?: IngesterReadStats,
  ): Promise<StreamQueryResult[]> {
    const { matchers, fromNs, throughNs, direction, shard } = select;
    const snapshot = await this.fetch(tenant, {
      matchers,
      fromNs,
      throughNs,
      ...(shard === undefined ? {} : { shard }),
    });
    if (!snapshot.reached) return [];
    if (stats) stats.ingestersReached++;
    return queryStreams(
      snapshotToStreams(snapshot),
      { fromNs, throughNs },
      direction,
      stats ?? newQueryStats(),
      select,
    );
  }
}
