/**
 * The final WAL checkpoint's time budget: what is left of the graceful shutdown period. A
 * checkpoint that, at its own pace so far, would not finish in it is given up at once, with a
 * message that says so, instead of being cut off by the process's exit at the deadline. Nothing
 * is lost either way: the WAL segments it would have replaced stay, and the next start replays
 * them.
 */
export class CheckpointAbandonedError extends Error {
  constructor(streams: number, projectedMs: number, budgetMs: number) {
    super(
      `final WAL checkpoint of ${streams} streams given up: at its pace it needs about ` +
        `${seconds(projectedMs)}, more than the ${seconds(budgetMs)} left of ` +
        'server.graceful_shutdown_timeout (raise it for this many streams); ' +
        'the next start replays the WAL segments instead',
    );
    this.name = 'CheckpointAbandonedError';
  }
}

/** Judged once this share of the streams is written, or this long has passed, since the first. */
const JUDGE_AFTER_SHARE = 0.05;
const JUDGE_AFTER_MS = 300;
/** Given up only when the projection exceeds the budget by this factor (pace varies). */
const MARGIN = 1.2;

/**
 * Watches a checkpoint's progress against a deadline: `progress(done, total)` throws
 * CheckpointAbandonedError once the end projected at the pace since its first call (after the
 * checkpoint's set-up) is past the budget by the margin, or the deadline has passed.
 */
export function checkpointWatch(
  deadlineMs: number,
  now: () => number = Date.now,
): (done: number, total: number) => void {
  const startMs = now();
  const budgetMs = deadlineMs - startMs;
  let first: { atMs: number; done: number } | null = null;
  return (done, total) => {
    const atMs = now();
    if (first === null) {
      first = { atMs, done };
      return;
    }
    const spent = atMs - first.atMs;
    const progressed = done - first.done;
    if (progressed <= 0 || (progressed < total * JUDGE_AFTER_SHARE && spent < JUDGE_AFTER_MS))
      return;
    const projectedMs = atMs - startMs + (spent / progressed) * (total - done);
    if (projectedMs > budgetMs * MARGIN || atMs > deadlineMs)
      throw new CheckpointAbandonedError(total, projectedMs, budgetMs);
  };
}

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}
