import type { RunQueryResult } from '@logsvc/logql';
import type { Querier } from '../querier';
import type { QueryRequest } from '../query-executor';
import type { QueryWorkerPool } from './query-worker-pool';

/**
 * Runs a query in a worker of `pool` when the querier lets it (`Querier.poolQuery`: the store
 * alone answers it, or it reads enough of the in-process ingester's data), else on this
 * thread's querier: the same answer either way. How the single binary runs the
 * query frontend's sub-queries; any number may be in flight at once.
 */
export async function runPooledQuery(
  querier: Querier,
  pool: QueryWorkerPool | null,
  request: QueryRequest,
): Promise<RunQueryResult> {
  if (pool !== null) {
    const query = await querier.poolQuery(request);
    if (query !== null) return pool.run(query, request.clientSignal, querier.snapshots);
  }
  return querier.query(request);
}
