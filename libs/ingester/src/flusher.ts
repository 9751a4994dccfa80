import { setTimeout as sleep } from 'node:timers/promises';
import type { FlushBackoffConfig } from './config';
import type { IngesterLogger } from './logger';
import { ConcurrencyLimiter } from './limiter';
import { bump, type IngesterCounters } from './metrics';
import type { ChunkSink, FlushedChunk } from './sink';
import { encodedChunk, type ClosedChunk, type Stream } from './stream';

export interface FlusherOptions {
  readonly sink: ChunkSink;
  readonly concurrency: number;
  readonly backoff: FlushBackoffConfig;
  /** One `putChunks` call taking longer than this counts as failed (0 = no limit). */
  readonly opTimeoutMs: number;
  /** How long flushed chunks stay queryable in memory. */
  readonly retainMs: number;
  readonly now: () => number;
  /** Whether a WAL record has settled (on disk, or failed and rolled back out of memory). */
  readonly walSettled: (seq: number) => boolean;
  readonly logger: IngesterLogger;
  readonly counters: IngesterCounters;
}

class FlushTimeoutError extends Error {}

/**
 * Hands closed chunks to the sink, one operation per stream, at most `concurrency` at once.
 * An operation retries with exponential backoff (`flush_op_backoff`); if every retry fails
 * the chunks stay in memory and the next flush check tries again.
 */
export class Flusher {
  private readonly limiter: ConcurrencyLimiter;
  private readonly inflight = new Set<Promise<boolean>>();
  /**
   * Set when an operation failed after all its retries (a full disk, a store that is down),
   * cleared by the next success. While set, operations try once instead of retrying, so a
   * `/flush` over many streams fails within one retry schedule rather than one per stream.
   */
  private failing = false;
  /** Aborted when a forced flush begins: wakes the operations waiting between retries. */
  private wake = new AbortController();
  /** Forced flushes running: background operations give up instead of waiting to retry. */
  private forced = 0;
  /** Why the last operation that gave up failed (for the caller of a forced flush). */
  lastError: unknown = null;

  constructor(private readonly opts: FlusherOptions) {
    this.limiter = new ConcurrencyLimiter(opts.concurrency);
  }

  /**
   * Queues a flush of the stream's closed chunks that are due (all of them when `force`).
   * Resolves to false when some chunk could not be flushed.
   */
  flushStream(stream: Stream, force: boolean): Promise<boolean> {
    if (stream.flushQueued) return Promise.resolve(true);
    stream.flushQueued = true;
    const op = this.limiter
      .run(() => this.flushNow(stream, force))
      .finally(() => {
        stream.flushQueued = false;
        this.inflight.delete(op);
      });
    this.inflight.add(op);
    return op;
  }

  /**
   * Runs a forced flush (`/flush`, shutdown). Meanwhile background operations do not wait
   * between retries: those waiting wake, try once more, and give up if that fails too (the
   * forced flush takes their chunks over), so it answers within its own attempts rather than
   * after their retry schedules of minutes.
   */
  async forcing<T>(work: () => Promise<T>): Promise<T> {
    this.forced++;
    this.wake.abort();
    this.wake = new AbortController();
    try {
      return await work();
    } finally {
      this.forced--;
    }
  }

  /** Waits for every queued or running flush operation. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Drops flushed chunks whose retain period is over. */
  dropRetained(stream: Stream): void {
    const now = this.opts.now();
    const closed = stream.closed;
    let w = 0;
    for (let r = 0; r < closed.length; r++) {
      const c = closed[r];
      if (c.flushedAtMs !== null && now - c.flushedAtMs >= this.opts.retainMs) continue;
      closed[w++] = c;
    }
    closed.length = w;
  }

  private async flushNow(stream: Stream, force: boolean): Promise<boolean> {
    const now = this.opts.now();
    const due = stream.closed.filter(
      (c) =>
        c.flushedAtMs === null &&
        !c.flushing &&
        (force || c.retryAtMs <= now) &&
        this.opts.walSettled(c.walSeq),
    );
    if (due.length === 0) return true;
    for (const c of due) c.flushing = true;
    const { counters, logger } = this.opts;
    try {
      const batch: FlushedChunk[] = due.map((c) => toFlushed(stream, c));
      await this.putWithRetries(stream.tenant, batch, force);
      const flushedAt = this.opts.now();
      for (let i = 0; i < due.length; i++) {
        due[i].flushedAtMs = flushedAt;
        counters.chunks_flushed_total++;
        bump(counters.chunks_flushed_by_reason_total, due[i].reason);
        counters.chunks_flushed_bytes_total += batch[i].data.length;
        counters.chunks_flushed_uncompressed_bytes_total += batch[i].uncompressedSize;
        counters.chunks_flushed_entries_total += batch[i].entries;
      }
      this.dropRetained(stream);
      return true;
    } catch (err) {
      this.lastError = err;
      const retryAt = this.opts.now() + this.opts.backoff.max_period;
      for (const c of due) {
        c.failures++;
        c.retryAtMs = retryAt;
      }
      logger.error(
        { tenant: stream.tenant, stream: stream.labelsText, chunks: due.length, err },
        'failed to flush chunks',
      );
      return false;
    } finally {
      for (const c of due) c.flushing = false;
    }
  }

  /**
   * Puts with `flush_op_backoff`'s retries. A forced flush gives up at once on a full disk (no
   * retry within seconds frees it); a background one gives up while a forced flush runs.
   */
  private async putWithRetries(
    tenant: string,
    batch: FlushedChunk[],
    force: boolean,
  ): Promise<void> {
    const { backoff, counters } = this.opts;
    const attempts = this.failing ? 1 : Math.max(1, backoff.max_retries);
    let delay = backoff.min_period;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.putOnce(tenant, batch);
        this.failing = false;
        return;
      } catch (err) {
        counters.flush_failures_total++;
        const yieldToForced = !force && this.forced > 0;
        if (attempt >= attempts || yieldToForced || (force && isDiskFull(err))) {
          this.failing = true;
          throw err;
        }
        // Woken by a forced flush: one more try now, then the check above gives up.
        await sleep(delay, undefined, { signal: this.wake.signal }).catch(() => {});
        delay = Math.min(delay * 2, backoff.max_period);
      }
    }
  }

  private async putOnce(tenant: string, batch: FlushedChunk[]): Promise<void> {
    const put = this.opts.sink.putChunks(tenant, batch);
    if (!(this.opts.opTimeoutMs > 0)) return put;
    // A put that loses the race may still fail later; that failure is already accounted for.
    put.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new FlushTimeoutError(`flush took longer than ${this.opts.opTimeoutMs}ms`)),
        this.opts.opTimeoutMs,
      );
      timer.unref();
    });
    try {
      await Promise.race([put, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);

/** A full (or read-only) disk, also when wrapped as an error's cause. */
export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (DISK_FULL.has((e as NodeJS.ErrnoException).code ?? '')) return true;
  }
  return false;
}

function toFlushed(stream: Stream, c: ClosedChunk): FlushedChunk {
  return {
    labels: stream.labels,
    fromNs: c.chunk.minTimeNs,
    throughNs: c.chunk.maxTimeNs,
    entries: c.chunk.entryCount,
    uncompressedSize: c.chunk.uncompressedBytes,
    data: encodedChunk(c),
  };
}
