import type { LogEntry, PushRequest, PushStream } from '@logsvc/api';
import { labelsToString } from '@logsvc/api';
import { DiscardCounts, DiscardReason, entrySize, GroupedErrors } from './discards';
import { PushError } from './errors';
import { datasizeString as formatByteSize } from '@logsvc/gocompat';
import type { PushLimits } from './limits';
import { TokenBucket } from './token-bucket';

const MiB = 1 << 20;

export type IngestionRateLimits = Pick<
  PushLimits,
  'ingestion_rate_mb' | 'ingestion_burst_size_mb' | 'ingestion_rate_strategy'
>;
export type StreamRateLimits = Pick<
  PushLimits,
  'per_stream_rate_limit' | 'per_stream_rate_limit_burst'
>;

export interface RateLimiterOptions {
  /** Milliseconds clock; injectable for tests. */
  now?: () => number;
  /** Healthy distributors sharing a `global` limit (at least 1). */
  distributors?: () => number;
}

/**
 * The tenant ingestion rate limit (429). With the `global` strategy each distributor enforces
 * its share, rate / distributors; the burst is not divided, as in Loki.
 */
export class IngestionRateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly now: () => number;
  private readonly distributors: () => number;

  constructor(opts: RateLimiterOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.distributors = opts.distributors ?? (() => 1);
  }

  /** This distributor's limit for the tenant, bytes per second. */
  limit(limits: IngestionRateLimits): number {
    const rate = limits.ingestion_rate_mb * MiB;
    if (limits.ingestion_rate_strategy !== 'global') return rate;
    return rate / Math.max(1, this.distributors());
  }

  /**
   * Charges `bytes` (line + structured metadata bytes of the validated entries). Returns the
   * 429 error to send when the tenant is over its limit; nothing is charged then.
   */
  check(
    tenant: string,
    limits: IngestionRateLimits,
    lines: number,
    bytes: number,
  ): PushError | undefined {
    const nowMs = this.now();
    const rate = this.limit(limits);
    const burst = limits.ingestion_burst_size_mb * MiB;
    let bucket = this.buckets.get(tenant);
    if (bucket === undefined) {
      bucket = new TokenBucket(rate, burst, nowMs);
      this.buckets.set(tenant, bucket);
    } else bucket.setLimits(rate, burst, nowMs);
    if (bucket.allowN(nowMs, bytes)) return undefined;
    return new PushError(
      429,
      `Ingestion rate limit exceeded for user ${tenant} (limit: ${Math.trunc(rate)} bytes/sec) while attempting to ingest '${lines}' lines totaling '${bytes}' bytes, reduce log volume or contact your Loki administrator to see if the limit can be increased`,
      DiscardReason.rateLimited,
    );
  }
}

export interface StreamLimitResult {
  readonly request: PushRequest;
  /** 429 with grouped per-stream messages when any entry was refused. */
  readonly error?: PushError;
  readonly discarded: DiscardCounts;
}

/**
 * Per-stream rate limits (per_stream_rate_limit / _burst), checked entry by entry as Loki's
 * ingester does; entries over the limit are refused, the rest kept.
 */
export class StreamRateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly now: () => number;
  private calls = 0;

  constructor(opts: Pick<RateLimiterOptions, 'now'> = {}) {
    this.now = opts.now ?? Date.now;
  }

  /** Number of streams currently tracked (idle full buckets are dropped periodically). */
  get size(): number {
    return this.buckets.size;
  }

  apply(tenant: string, limits: StreamRateLimits, req: PushRequest): StreamLimitResult {
    const nowMs = this.now();
    if (++this.calls % 1024 === 0) this.prune(nowMs);
    const discarded = new DiscardCounts();
    const errors = new GroupedErrors();
    const streams: PushStream[] = [];
    for (const stream of req.streams) {
      const text = labelsToString(stream.labels);
      const key = tenant + '\u0000' + text;
      let bucket = this.buckets.get(key);
      if (bucket === undefined) {
        bucket = new TokenBucket(
          limits.per_stream_rate_limit,
          limits.per_stream_rate_limit_burst,
          nowMs,
        );
        this.buckets.set(key, bucket);
      } else
        bucket.setLimits(limits.per_stream_rate_limit, limits.per_stream_rate_limit_burst, nowMs);
      let kept: LogEntry[] | undefined;
      let refusedBytes = 0;
      for (let i = 0; i < stream.entries.length; i++) {
        const e = stream.entries[i];
        const size = entrySize(e.line, e.structuredMetadata);
        if (bucket.allowN(nowMs, size)) {
          kept?.push(e);
          continue;
        }
        kept ??= stream.entries.slice(0, i);
        refusedBytes += size;
        discarded.add(DiscardReason.perStreamRateLimit, 1, size);
      }
      if (kept === undefined) streams.push(stream);
      else {
        errors.add(
          DiscardReason.perStreamRateLimit,
          `Per stream rate limit exceeded (limit: ${formatByteSize(limits.per_stream_rate_limit)}/sec) while attempting to ingest for stream '${text}' totaling ${formatByteSize(refusedBytes)}, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased`,
        );
        if (kept.length > 0) streams.push({ labels: stream.labels, entries: kept });
      }
    }
    const error =
      errors.size > 0
        ? new PushError(429, errors.message(), DiscardReason.perStreamRateLimit)
        : undefined;
    return { request: { streams }, error, discarded };
  }

  private prune(nowMs: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.isFull(nowMs)) this.buckets.delete(key);
  }
}
