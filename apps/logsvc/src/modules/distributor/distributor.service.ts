import type { PushRequest } from '@logsvc/api';
import type { Config, Overrides, TenantLimits } from '@logsvc/config';
import { IngestError, IngesterStoppedError, type Ingester } from '@logsvc/ingester';
import {
  DiscardReason,
  IngestionRateLimiter,
  PushError,
  StreamRateLimiter,
  checkBlockedIngestion,
  decodeOtlpBody,
  decodePushBody,
  validatePush,
} from '@logsvc/push';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import { ServiceRegistry } from '../../lifecycle/service-registry';
import { CONFIG, OVERRIDES } from '../../tokens';
import { LocalIngesterClient } from '@logsvc/ingester';
import { DistributorMetrics } from './distributor-metrics';

/** Which decoder a push body goes through. */
export type PushFormat = 'loki' | 'otlp';

/** One push request as the controller received it. */
export interface PushInput {
  readonly tenant: string;
  readonly format: PushFormat;
  /** The raw body: a Buffer, or whatever a non-raw body parser made of it (refused by type). */
  readonly body: unknown;
  readonly contentType: string | undefined;
  readonly contentEncoding: string | undefined;
}

const EMPTY = Buffer.alloc(0);
const NS_PER_MS = 1_000_000n;

/**
 * The distributor: decodes a push, applies the tenant's limits the way Loki's distributor does,
 * and hands the valid remainder to the ingester. Every refusal becomes a PushError whose status
 * and message the controller sends; valid streams of a partly refused push are stored first.
 */
@Injectable()
export class DistributorService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'distributor';
  private readonly rateLimiter = new IngestionRateLimiter();
  private readonly streamRateLimiter = new StreamRateLimiter();

  constructor(
    @Inject(ServiceRegistry) private readonly registry: ServiceRegistry,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(OVERRIDES) private readonly overrides: Overrides,
    @Inject(LocalIngesterClient) private readonly localIngester: LocalIngesterClient,
    @Inject(DistributorMetrics) private readonly metrics: DistributorMetrics,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  /**
   * Order: blocked tenant → decode → validate → tenant rate limit → per-stream rate limit →
   * ingester. Resolves when everything accepted is durable; throws PushError otherwise (after
   * storing what was valid, when only part of the request was refused).
   */
  async push(input: PushInput): Promise<void> {
    const { tenant } = input;
    const limits = this.overrides.forTenant(tenant);
    const nowMs = Date.now();
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
    limits: TenantLimits,
    nowNs: bigint,
    decoded: PushRequest,
  ): Promise<void> {
    const validation = validatePush(decoded, limits, tenant, nowNs);
    this.metrics.discardedAll(tenant, validation.discarded);
    this.metrics.truncated(tenant, validation.truncatedLines);
    this.metrics.received(tenant, validation.receivedLines, validation.receivedBytes);
    const validationError = validation.error;
    if (validation.request.streams.length === 0) {
      if (validationError) throw validationError;
      return Promise.resolve(); // only streams without entries: nothing to store, as Loki
    }

    const rateError = this.rateLimiter.check(
      tenant,
      limits,
      validation.acceptedLines,
      validation.acceptedBytes,
    );
    if (rateError) {
      this.metrics.discarded(
        tenant,
        DiscardReason.rateLimited,
        validation.acceptedLines,
        validation.acceptedBytes,
      );
      throw rateError;
    }

    const streamLimited = this.streamRateLimiter.apply(tenant, limits, validation.request);
    this.metrics.discardedAll(tenant, streamLimited.discarded);
    const limitError = streamLimited.error;
    const stored =
      streamLimited.request.streams.length > 0
        ? this.store(tenant, streamLimited.request)
        : Promise.resolve([]);
    return stored.then((ingestErrors) => {
      // As Loki: an ingester-side refusal (per-stream rate, order, stream limit) outranks the
      // distributor's validation error, which is answered when the ingester took everything.
      const ingesterSide = [...(limitError ? [limitError] : []), ...ingestErrors];
      if (ingesterSide.length > 0) {
        const last = ingesterSide[ingesterSide.length - 1];
        throw new PushError(last.status, ingesterSide.map((e) => e.message).join('\n'));
      }
      if (validationError) throw validationError;
    });
  }

  private async decode(
    input: PushInput,
    limits: TenantLimits,
    nowNs: bigint,
  ): Promise<PushRequest> {
    const options = {
      body: Buffer.isBuffer(input.body) ? input.body : EMPTY,
      contentType: input.contentType,
      contentEncoding: input.contentEncoding,
      maxDecompressedBytes: this.config.distributor.max_recv_msg_size,
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
      throw new PushError(400, err instanceof Error ? err.message : String(err));
    }
  }

  /** A blocked push is still counted as discarded (by its valid lines), as Loki does. */
  private async countBlocked(input: PushInput, limits: TenantLimits, nowNs: bigint): Promise<void> {
    let decoded: PushRequest;
    try {
      decoded = await this.decode(input, limits, nowNs);
    } catch {
      return; // undecodable: nothing to count, the block answer stands
    }
    const v = validatePush(decoded, limits, input.tenant, nowNs);
    this.metrics.received(input.tenant, v.receivedLines, v.receivedBytes);
    this.metrics.discarded(
      input.tenant,
      DiscardReason.blockedIngestion,
      v.acceptedLines,
      v.acceptedBytes,
    );
  }

  /** Pushes to this process's ingester; resolves to its per-stream refusals (already counted). */
  private store(tenant: string, request: PushRequest): Promise<IngestError[]> {
    const ingester: Ingester | undefined = this.localIngester.ingester;
    if (!ingester) {
      throw new PushError(503, 'no ingester is running in this process to accept the push');
    }
    return ingester.push(tenant, request).then(
      ({ errors }) => {
        for (const e of errors) {
          if (e instanceof IngestError) {
            this.metrics.discarded(tenant, e.reason, e.discardedEntries, e.discardedBytes);
          }
        }
        return errors;
      },
      (err: unknown) => {
        if (err instanceof IngesterStoppedError) throw new PushError(503, err.message);
        // WalWriteError and the like: nothing of this push was acknowledged.
        throw new PushError(500, `push not stored: ${(err as Error).message}`);
      },
    );
  }
}
