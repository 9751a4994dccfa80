// How many chunks a delete request touches, counted from the index alone (no chunk is read):
// the compactor reports it as the request's chunks total when it picks the request up, so the
// admin UI shows chunks done out of the total.
import type { ChunkStore, IndexTableRef } from '@logsvc/storage';
import { mergeSeries } from '@logsvc/storage';
import type { DeleteRequestRecord } from './delete-request';
import { LineDeleter } from './line-deleter';

/**
 * The chunks of `tables` whose stream matches the request's selector and whose time range
 * overlaps one of its unprocessed parts: the chunks the table passes will process for it
 * (a chunk indexed in two tables counts in each, as the passes count it).
 */
export async function countRequestChunks(
  store: ChunkStore,
  record: DeleteRequestRecord,
  tables: readonly IndexTableRef[],
): Promise<number> {
  const deleter = new LineDeleter([record], true);
  if (deleter.empty) return 0;
  let total = 0;
  for (const table of tables) {
    const files = await store.maintenance.readTable(record.tenant, table);
    for (const s of mergeSeries(files.map((f) => f.series))) {
      if (deleter.forStream(s.labels) === null) continue;
      for (const c of s.chunks) {
        if (deleter.forStream(s.labels, c.fromNs, c.throughNs) !== null) total++;
      }
    }
  }
  return total;
}
