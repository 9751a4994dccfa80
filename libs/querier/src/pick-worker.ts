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

/**
 * Where a request with a preferred worker (`slot`, e.g. its shard index) goes: that worker
 * (`slot` modulo `size`) while it has room, else a worker that is idle, else a new one while
 * the pool may grow, else none (it waits for its worker). Requests without a slot, or whose
 * worker is not started yet, go where `pickWorker` sends them. A shard's sub-queries thus run
 * on one worker, whose caches hold the chunks and boundary blocks its earlier splits read, and
 * no core waits while there is work.
 */
export function pickAffineWorker<W extends BusyCount>(
  workers: readonly W[],
  slot: number | undefined,
  size: number,
  perWorker: number,
  spawn: () => W,
): W | undefined {
  const preferred = slot === undefined ? undefined : workers[slot % size];
  if (preferred === undefined) return pickWorker(workers, size, perWorker, spawn);
  if (preferred.inFlight.size < perWorker) return preferred;
  const idle = workers.find((w) => w.inFlight.size === 0);
  if (idle !== undefined) return idle;
  return workers.length < size ? spawn() : undefined;
}
