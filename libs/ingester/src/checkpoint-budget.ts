/**
 * The final WAL checkpoint's time budget: what is left of the graceful shutdown period. Once
 * the checkpoint has run long enough to show its pace, a projected end past the budget is
 * logged at once; a checkpoint still running at the deadline (less a small reserve to close the
 * WAL) is given up with a message that says so, instead of being cut off by the process's exit.
 * Nothing is lost either way: the WAL segments it would have replaced stay, and the next start
 * replays them.
 */
export class CheckpointAbandonedError extends Error {
  constructor(done: number, streams: number, budgetMs: number) {
    super(
      `final WAL checkpoint given up at the end of server.graceful_shutdown_timeout ` +
        `(${seconds(budgetMs)} left for it): ${done} of ${streams} streams written; raise it ` +
        'for this many streams; the next start replays the WAL segments instead',
    );
    this.name = 'CheckpointAbandonedError';
  }
}

/**
 * The pace is judged once this share of the budget (at least JUDGE_AFTER_MS) has passed since
 * the first call: the first streams run before the code is optimised, so an earlier
 * projection overshoots.
 */
const JUDGE_AFTER_BUDGET_SHARE = 0.25;
const JUDGE_AFTER_MS = 300;
/**
 * Left at the deadline to give up and close the WAL before the process exits: a tenth of the
 * budget, 0.5-3 s (a full garbage collection of a large ingester's heap can take a few hundred
 * milliseconds between two progress calls).
 */
const RESERVE_SHARE = 0.1;
const RESERVE_MIN_MS = 500;
const RESERVE_MAX_MS = 3_000;

/**
 * Watches a checkpoint's progress against a deadline: `progress(done, total)` calls `warn`
 * once with the projected duration when the pace since its first call (after the checkpoint's
 * set-up) would end past the budget, and throws CheckpointAbandonedError at the deadline.
 */
export function checkpointWatch(
  deadlineMs: number,
  warn: (projectedMs: number, budgetMs: number) => void,
  now: () => number = Date.now,
): (done: number, total: number) => void {
  const startMs = now();
  const budgetMs = deadlineMs - startMs;
  const judgeAfterMs = Math.max(JUDGE_AFTER_MS, budgetMs * JUDGE_AFTER_BUDGET_SHARE);
  const reserveMs = Math.min(RESERVE_MAX_MS, Math.max(RESERVE_MIN_MS, budgetMs * RESERVE_SHARE));
  const giveUpAtMs = deadlineMs - Math.min(reserveMs, budgetMs / 2);
  let first: { atMs: number; done: number } | null = null;
  let judged = false;
  return (done, total) => {
    const atMs = now();
    if (atMs >= giveUpAtMs && done < total)
      throw new CheckpointAbandonedError(done, total, budgetMs);
    if (first === null) {
      first = { atMs, done };
      return;
    }
    const spent = atMs - first.atMs;
    const progressed = done - first.done;
    if (judged || progressed <= 0 || spent < judgeAfterMs) return;
    judged = true;
    const projectedMs = atMs - startMs + (spent / progressed) * (total - done);
    if (projectedMs > budgetMs) warn(projectedMs, budgetMs);
  };
}

/**
 * What a checkpoint is assumed to take per stream before one has run in this process: about
 * three times what a stream with a few short lines took on a busy 2-core machine (writing and
 * fsyncing included), so the estimate errs long.
 */
export const ASSUMED_CHECKPOINT_MS_PER_STREAM = 0.05;
/** A checkpoint of fewer streams than this is dominated by its set-up: its pace is not kept. */
const MIN_STREAMS_FOR_PACE = 1_000;

/**
 * The pace of this process's checkpoints (ms per stream, the newest one's), for the estimate
 * the final checkpoint is given at shutdown start.
 */
export class CheckpointPace {
  private msPerStream: number | null = null;

  /** Records a checkpoint of `streams` streams that took `ms`. */
  record(streams: number, ms: number): void {
    if (streams >= MIN_STREAMS_FOR_PACE) this.msPerStream = ms / streams;
  }

  /**
   * The estimate for `streams` streams, and where its pace comes from; a line to log when it
   * is longer than `budgetMs`, else null.
   */
  tooLong(streams: number, budgetMs: number): { message: string; fields: object } | null {
    const measured = this.msPerStream !== null;
    const pace = this.msPerStream ?? ASSUMED_CHECKPOINT_MS_PER_STREAM;
    const estimateMs = streams * pace;
    if (estimateMs <= budgetMs) return null;
    const paceText = `${(pace * 1000).toFixed(1)} µs a stream, ${measured ? "this process's last checkpoint's pace" : 'assumed: no checkpoint has run yet'}`;
    return {
      fields: {
        streams,
        estimated_ms: Math.round(estimateMs),
        budget_ms: Math.round(budgetMs),
        ms_per_stream: pace,
        pace: measured ? 'measured' : 'assumed',
      },
      message:
        `the final WAL checkpoint of ${streams} streams is estimated at ${seconds(estimateMs)} ` +
        `(${paceText}), more than the ${seconds(budgetMs)} of server.graceful_shutdown_timeout: ` +
        'it may be given up at the deadline and the next start replay the WAL segments instead; ' +
        'raise server.graceful_shutdown_timeout (and the pod termination grace period) for this many streams',
    };
  }
}

/** `12.3 s` */
export function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}
