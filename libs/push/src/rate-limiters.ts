import { DiscardReason } from './discards';
import { PushError } from './errors';
import type { PushLimits } from './limits';
import { TokenBucket } from './token-bucket';

const MiB = 1 << 20;

export type IngestionRateLimits = Pick<
  PushLimits,
  'ingestion_rate_mb' | 'ingestion_burst_size_mb' | 'ingestion_rate_strategy'
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
      'limit',
      `Ingestion rate limit exceeded for user ${tenant} (limit: ${Math.trunc(rate)} bytes/sec) while attempting to ingest '${lines}' lines totaling '${bytes}' bytes, reduce log volume or contact your Loki administrator to see if the limit can be increased`,
      { reason: DiscardReason.rateLimited },
    );
  }
}
