import type { PushStream } from '@logsvc/api';

/** Where a batch of one tenant's teed streams goes (the in-process ingester, or the ring). */
export type PatternSink = (tenant: string, streams: PushStream[]) => Promise<void>;

/** Loki's tee metrics (pkg/pattern/tee_service.go), counted by the tee and its sink. */
export interface PatternTeeCounters {
  /**
   * `pattern_ingester_teed_streams_total`: streams handed to a pattern ingester's batch, or
   * dropped (no owner in the ring; in logsvc also: over the tee's memory bound).
   */
  streams(status: 'batched' | 'dropped', n: number): void;
  /** `pattern_ingester_teed_requests_total`: batches queued for sending, or dropped (queue full). */
  requests(status: 'queued' | 'dropped'): void;
  /** `pattern_ingester_appends_total`: pushes to one pattern ingester, by address. */
  appends(ingester: string, status: 'success' | 'fail'): void;
}

export interface PatternTeeOptions {
  readonly sink: PatternSink;
  /** `pattern_ingester.tee_config.batch_flush_interval`; 0 flushes on the next turn. */
  readonly flushIntervalMs: number;
  /**
   * Line bytes held at most, buffered or being sent: pushes beyond are not teed (Loki drops
   * too), so a pattern ingester slower than the pushes costs no more memory than this.
   */
  readonly maxBufferedBytes: number;
  /** Batches in flight at most (`tee_config.flush_queue_size`); more are dropped. */
  readonly maxInFlight: number;
  /** Told about each dropped or failed batch; never throws into the push. */
  readonly onDropped?: (reason: 'buffer_full' | 'queue_full' | 'failed', err?: unknown) => void;
  /** Counts streams and batches (the sink counts the appends). */
  readonly counters?: PatternTeeCounters;
}

/**
 * Loki's pattern tee: the distributor hands it the accepted streams of each push, and it
 * forwards them to the pattern ingesters later, in batches. `duplicate` only buffers: a slow
 * or failing pattern ingester never delays or fails a push; what cannot be sent is dropped.
 */
export class PatternTee {
  private buffers = new Map<string, { streams: PushStream[]; bytes: number }>();
  /** Bytes buffered and in flight. */
  private heldBytes = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly settled = new Set<Promise<void>>();

  constructor(private readonly options: PatternTeeOptions) {}

  duplicate(tenant: string, streams: readonly PushStream[]): void {
    if (this.stopped || streams.length === 0) return;
    let bytes = 0;
    for (const s of streams) for (const e of s.entries) bytes += e.line.length;
    if (this.heldBytes + bytes > this.options.maxBufferedBytes) {
      this.options.counters?.streams('dropped', streams.length);
      this.options.onDropped?.('buffer_full');
      return;
    }
    this.heldBytes += bytes;
    let buffer = this.buffers.get(tenant);
    if (buffer === undefined) this.buffers.set(tenant, (buffer = { streams: [], bytes: 0 }));
    buffer.streams.push(...streams);
    buffer.bytes += bytes;
    this.timer ??= setTimeout(() => this.flush(), this.options.flushIntervalMs).unref();
  }

  /** Sends what is buffered now (also done by the timer). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const buffers = this.buffers;
    this.buffers = new Map();
    for (const [tenant, { streams, bytes }] of buffers) {
      if (this.inFlight >= this.options.maxInFlight) {
        this.heldBytes -= bytes;
        this.options.counters?.requests('dropped');
        this.options.onDropped?.('queue_full');
        continue;
      }
      this.options.counters?.requests('queued');
      this.inFlight++;
      const sent: Promise<void> = this.options
        .sink(tenant, streams)
        .catch((err: unknown) => this.options.onDropped?.('failed', err))
        .finally(() => {
          this.inFlight--;
          this.heldBytes -= bytes;
          this.settled.delete(sent);
        });
      this.settled.add(sent);
    }
  }

  /** Flushes what is buffered and waits for the batches in flight, at most `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    this.flush();
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.settled]),
      new Promise((resolve) => (timeout = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timeout);
  }
}
