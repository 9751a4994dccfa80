import type { PushBodySource, PushStream } from '@logsvc/api';
import {
  ADMIT_ALL,
  type IngesterClient,
  type StreamAdmission,
  type StreamAdmissionSource,
} from '@logsvc/ingester';
import {
  checkBlockedIngestion,
  decodeOtlpBodyStreams,
  OtlpDecodeThread,
  decodePushBodyStreams,
  DiscardReason,
  IngestionRateLimiter,
  PushError,
  PushValidator,
  type DiscardCounts,
  type PushBodyStreams,
  type PushLimits,
  type PushStreams,
  type PushValidationResult,
} from '@logsvc/push';
import type { DistributorMetricsSink } from './metrics-sink';
import type { PushInput } from './push-input';
import { ingesterFailure, pushRefusal } from './refusals';
import { pushInBatches } from './ingest-batches';
import { TimeSlicer } from './time-slicer';

/** Where the distributor reads a tenant's limits: `Overrides` of @logsvc/config fits. */
export interface TenantLimitsSource {
  forTenant(tenant: string): PushLimits;
}

/** Gets a copy of every push's accepted streams (Loki's distributor Tee: the pattern tee). */
export interface PushTee {
  /** Must not block or throw into the push: it only queues. */
  duplicate(tenant: string, streams: readonly PushStream[]): void;
}

export interface DistributorOptions {
  readonly limits: TenantLimitsSource;
  /** The ingesters the valid remainder of a push goes to. */
  readonly ingester: IngesterClient;
  /**
   * Which new streams a push may create, checked while it is decoded (the in-process
   * ingester's stream limits); absent: every stream, the ingesters enforce their limits.
   */
  readonly admission?: StreamAdmissionSource;
  readonly metrics: DistributorMetricsSink;
  /** `distributor.max_recv_msg_size`: the largest body after decompression, in bytes. */
  readonly maxRecvMsgSize: number;
  /** Milliseconds clock; injectable for tests. */
  readonly now?: () => number;
  /** Healthy distributors sharing a `global` ingestion rate (1 in the single binary). */
  readonly distributors?: () => number;
  /** Pattern ingesters' tee, when `pattern_ingester.enabled`. */
  readonly tee?: PushTee;
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
  /** Decodes large OTLP exports off the event loop (started on first use). */
  private readonly otlpThread = new OtlpDecodeThread();

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

    const { streams, source } = await this.decode(input, limits, nowNs);
    const admission = (await this.opts.admission?.streamAdmission(tenant)) ?? ADMIT_ALL;
    const validation = await this.validate(tenant, limits, nowNs, streams, admission);
    // Returned, not awaited: this frame, and what it decoded with it, ends before the wait for
    // the WAL, so per-entry objects die young instead of surviving collections.
    return this.admit(tenant, limits, validation, admission, source);
  }

  /**
   * Validates the decoded streams one by one, in slices that give the event loop a turn, and
   * keeps the valid ones the stream limits admit: streams over a limit are dropped as they are
   * decoded, so a push of a million new streams holds only what can be stored.
   */
  private async validate(
    tenant: string,
    limits: PushLimits,
    nowNs: bigint,
    streams: PushStreams,
    admission: StreamAdmission,
  ): Promise<PushValidationResult> {
    const validator = new PushValidator(limits, tenant, nowNs);
    const kept: PushStream[] = [];
    const slicer = new TimeSlicer();
    try {
      for (const stream of streams) {
        const valid = validator.add(stream);
        if (
          valid !== undefined &&
          admission.admit(valid.labelsText ?? valid.labels, valid.entries)
        ) {
          kept.push(valid);
        }
        if (slicer.due()) await slicer.yield();
      }
    } catch (err) {
      throw asPushError(err);
    }
    return validator.result(kept);
  }

  /**
   * Everything after validation, synchronously up to the ingester; the promise settles once
   * what was accepted is durable.
   */
  private admit(
    tenant: string,
    limits: PushLimits,
    validation: PushValidationResult,
    admission: StreamAdmission,
    source: PushBodySource | undefined,
  ): Promise<void> {
    const { metrics } = this.opts;
    this.countDiscarded(tenant, validation.discarded);
    metrics.truncated(tenant, validation.truncatedLines);
    metrics.received(tenant, validation.receivedLines, validation.receivedBytes);
    const validationError = validation.error;
    if (validation.acceptedLines === 0) {
      if (validationError) return Promise.reject(validationError);
      return Promise.resolve(); // only streams without entries: nothing to store, as Loki
    }

    // Streams refused by the stream limits were valid: they count against the rate, as in
    // Loki, where the ingester refuses them only after the distributor's rate limit.
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

    const overLimit = admission.refusal();
    if (overLimit) {
      metrics.discarded(
        tenant,
        overLimit.reason,
        overLimit.discardedEntries,
        overLimit.discardedBytes,
      );
    }
    if (validation.request.streams.length === 0) {
      return Promise.reject(pushRefusal(overLimit ? [overLimit] : [], validationError));
    }
    this.teeStreams(tenant, validation.request.streams);
    const request = source ? { ...validation.request, source } : validation.request;
    return pushInBatches(this.opts.ingester, tenant, request).then(
      (errors) => {
        for (const e of errors) {
          metrics.discarded(tenant, e.reason, e.discardedEntries, e.discardedBytes);
        }
        const refusal = pushRefusal(overLimit ? [...errors, overLimit] : errors, validationError);
        if (refusal) throw refusal;
      },
      (err: unknown) => {
        throw ingesterFailure(err);
      },
    );
  }

  /** As Loki: after the rate limit, before the ingesters; a failing tee never fails a push. */
  private teeStreams(tenant: string, streams: readonly PushStream[]): void {
    try {
      this.opts.tee?.duplicate(tenant, streams);
    } catch {
      // Patterns are best effort.
    }
  }

  private async decode(
    input: PushInput,
    limits: PushLimits,
    nowNs: bigint,
  ): Promise<PushBodyStreams> {
    const options = {
      body: Buffer.isBuffer(input.body) ? input.body : EMPTY,
      contentType: input.contentType,
      contentEncoding: input.contentEncoding,
      maxDecompressedBytes: this.opts.maxRecvMsgSize,
    };
    try {
      if (input.format !== 'otlp') return await decodePushBodyStreams(options);
      const streams = await decodeOtlpBodyStreams(
        { ...options, discover_service_name: limits.discover_service_name, nowNs },
        this.otlpThread,
      );
      return { streams };
    } catch (err) {
      throw asPushError(err);
    }
  }

  /** A blocked push is still counted as discarded (by its valid lines), as Loki does. */
  private async countBlocked(input: PushInput, limits: PushLimits, nowNs: bigint): Promise<void> {
    let v: PushValidationResult;
    try {
      const { streams } = await this.decode(input, limits, nowNs);
      const validator = new PushValidator(limits, input.tenant, nowNs);
      const slicer = new TimeSlicer();
      for (const stream of streams) {
        validator.add(stream);
        if (slicer.due()) await slicer.yield();
      }
      v = validator.result([]);
    } catch {
      return; // undecodable: nothing to count, the block answer stands
    }
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

/** The decoders type their own errors; anything else they throw is still the body's fault. */
function asPushError(err: unknown): PushError {
  if (err instanceof PushError) return err;
  return new PushError('bad_request', err instanceof Error ? err.message : String(err));
}
