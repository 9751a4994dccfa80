import type { PushRequest } from '@logsvc/api';
import type { IngesterClient } from '@logsvc/ingester';
import {
  checkBlockedIngestion,
  decodeOtlpBody,
  decodePushBody,
  DiscardReason,
  IngestionRateLimiter,
  PushError,
  validatePush,
  type DiscardCounts,
  type PushLimits,
} from '@logsvc/push';
import type { DistributorMetricsSink } from './metrics-sink';
import type { PushInput } from './push-input';
import { ingesterFailure, pushRefusal } from './refusals';

/** Where the distributor reads a tenant's limits: `Overrides` of @logsvc/config fits. */
export interface TenantLimitsSource {
  forTenant(tenant: string): PushLimits;
}

export interface DistributorOptions {
  readonly limits: TenantLimitsSource;
  /** The ingesters the valid remainder of a push goes to. */
  readonly ingester: IngesterClient;
  readonly metrics: DistributorMetricsSink;
  /** `distributor.max_recv_msg_size`: the largest body after decompression, in bytes. */
  readonly maxRecvMsgSize: number;
  /** Milliseconds clock; injectable for tests. */
  readonly now?: () => number;
  /** Healthy distributors sharing a `global` ingestion rate (1 in the single binary). */
  readonly distributors?: () => number;
}

const EMPTY = Buffer.alloc(0);
const NS_PER_MS = 1_000_000n;

/**
 * The write path in front of the ingesters, as Loki's distributor: blocked tenant → decode →
 * validate → tenant ingestion rate limit → ingester. Every refusal is a LogsvcError with Loki's
 * status and text; valid streams of a partly refused push are stored first.
 */
export class Distributor {
  private readonly rateLimiter: IngestionRateLimiter;
  private readonly now: () => number;

  constructor(private readonly opts: DistributorOptions) {
    this.now = opts.now ?? Date.now;
    this.rateLimiter = new IngestionRateLimiter({
      now: this.now,
      distributors: opts.distributors,
    });
  }

  /**
   * Resolves when everything accepted is durable; rejects with the refusal otherwise (after
   * storing what was valid, when only part of the request was refused).
   */
  async push(input: PushInput): Promise<void> {
    const { tenant } = input;
    const limits = this.opts.limits.forTenant(tenant);
    const nowMs = this.now();
    const nowNs = BigInt(nowMs) * NS_PER_MS;

    const blocked = checkBlockedIngestion(tenant, limits, nowMs);
    if (blocked) {
      await this.countBlocked(input, limits, nowNs);
      throw blocked;
    }

    // Returned, not awaited: this frame, and the decoded request with it, ends before the
    // wait for the WAL, so per-entry objects die young instead of surviving collections.
    return this.admit(tenant, limits, nowNs, await this.decode(input, limits, nowNs));
  }

  /**
   * Everything after decoding, synchronously up to the ingester; the promise settles once what
   * was accepted is durable.
   */
  private admit(
    tenant: string,
    limits: PushLimits,
    nowNs: bigint,
    decoded: PushRequest,
  ): Promise<void> {
    const { metrics } = this.opts;
    const validation = validatePush(decoded, limits, tenant, nowNs);
    this.countDiscarded(tenant, validation.discarded);
    metrics.truncated(tenant, validation.truncatedLines);
    metrics.received(tenant, validation.receivedLines, validation.receivedBytes);
    const validationError = validation.error;
    if (validation.request.streams.length === 0) {
      if (validationError) return Promise.reject(validationError);
      return Promise.resolve(); // only streams without entries: nothing to store, as Loki
    }

    const rateError = this.rateLimiter.check(
      tenant,
      limits,
      validation.acceptedLines,
      validation.acceptedBytes,
    );
    if (rateError) {
      metrics.discarded(
        tenant,
        DiscardReason.rateLimited,
        validation.acceptedLines,
        validation.acceptedBytes,
      );
      return Promise.reject(rateError);
    }

    return this.opts.ingester.push(tenant, validation.request).then(
      ({ errors }) => {
        for (const e of errors) {
          metrics.discarded(tenant, e.reason, e.discardedEntries, e.discardedBytes);
        }
        const refusal = pushRefusal(errors, validationError);
        if (refusal) throw refusal;
      },
      (err: unknown) => {
        throw ingesterFailure(err);
      },
    );
  }

  private async decode(input: PushInput, limits: PushLimits, nowNs: bigint): Promise<PushRequest> {
    const options = {
      body: Buffer.isBuffer(input.body) ? input.body : EMPTY,
      contentType: input.contentType,
      contentEncoding: input.contentEncoding,
      maxDecompressedBytes: this.opts.maxRecvMsgSize,
    };
    try {
      return input.format === 'otlp'
        ? await decodeOtlpBody({
            ...options,
            discover_service_name: limits.discover_service_name,
            nowNs,
          })
        : await decodePushBody(options);
    } catch (err) {
      if (err instanceof PushError) throw err;
      // The decoders type their own errors; anything else is still the body's fault.
      throw new PushError('bad_request', err instanceof Error ? err.message : String(err));
    }
  }

  /** A blocked push is still counted as discarded (by its valid lines), as Loki does. */
  private async countBlocked(input: PushInput, limits: PushLimits, nowNs: bigint): Promise<void> {
    let decoded: PushRequest;
    try {
      decoded = await this.decode(input, limits, nowNs);
    } catch {
      return; // undecodable: nothing to count, the block answer stands
    }
    const v = validatePush(decoded, limits, input.tenant, nowNs);
    this.opts.metrics.received(input.tenant, v.receivedLines, v.receivedBytes);
    this.opts.metrics.discarded(
      input.tenant,
      DiscardReason.blockedIngestion,
      v.acceptedLines,
      v.acceptedBytes,
    );
  }

  private countDiscarded(tenant: string, counts: DiscardCounts): void {
    for (const [reason, c] of counts.byReason) {
      this.opts.metrics.discarded(tenant, reason, c.lines, c.bytes);
    }
  }
}
