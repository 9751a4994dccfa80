import { describe, expect, it } from 'vitest';
import { pickAffineWorker } from './pick-worker';

interface W {
  readonly name: string;
  readonly inFlight: { size: number };
}

const worker = (name: string, busy: number): W => ({ name, inFlight: { size: busy } });

describe('pickAffineWorker', () => {
  const spawned = (): W => worker('new', 0);

  it('sends a shard to its worker while it has room, even when another is less busy', () => {
    const workers = [worker('a', 1), worker('b', 0)];
    expect(pickAffineWorker(workers, 0, 2, 2, spawned)?.name).toBe('a');
    expect(pickAffineWorker(workers, 2, 2, 2, spawned)?.name).toBe('a');
    expect(pickAffineWorker(workers, 3, 2, 2, spawned)?.name).toBe('b');
  });

  it('lets an idle worker take a shard whose worker is full, and waits when none is idle', () => {
    expect(pickAffineWorker([worker('a', 2), worker('b', 0)], 0, 2, 2, spawned)?.name).toBe('b');
    expect(pickAffineWorker([worker('a', 2), worker('b', 1)], 0, 2, 2, spawned)).toBeUndefined();
  });

  it('starts a worker for a full shard worker while the pool may grow', () => {
    expect(pickAffineWorker([worker('a', 2)], 0, 2, 2, spawned)?.name).toBe('new');
  });

  it('places requests without a shard, or whose worker is not started, on the least busy', () => {
    const workers = [worker('a', 1), worker('b', 0)];
    expect(pickAffineWorker(workers, undefined, 2, 2, spawned)?.name).toBe('b');
    expect(pickAffineWorker([worker('a', 1)], 1, 2, 2, spawned)?.name).toBe('new');
    expect(pickAffineWorker([worker('a', 0)], 1, 2, 2, spawned)?.name).toBe('a');
  });
});
