/** A worker thread of a pool, with the requests it is running. */
export interface BusyCount {
  readonly inFlight: { readonly size: number };
}

/**
 * Where a pool sends its next request: a new worker while the pool may grow and every worker
 * is busy, else the least busy one if it has room for another (`perWorker`), else none (the
 * request waits).
 */
export function pickWorker<W extends BusyCount>(
  workers: readonly W[],
  size: number,
  perWorker: number,
  spawn: () => W,
): W | undefined {
  let best: W | undefined;
  for (const w of workers) {
    if (best === undefined || w.inFlight.size < best.inFlight.size) best = w;
  }
  if ((best === undefined || best.inFlight.size > 0) && workers.length < size) return spawn();
  return best !== undefined && best.inFlight.size < perWorker ? best : undefined;
}
