import { labelsToString, type LogEntry, type PushRequest, type PushStream } from '@logsvc/api';
import { datasizeString as formatByteSize } from '@logsvc/gocompat';
import { entrySize, TokenBucket } from '@logsvc/push';
import type { StreamRateLimits } from './config';
import { IngestError } from './errors';

export interface StreamRateLimitResult {
  /** The request without the refused entries (streams left empty are dropped). */
  readonly request: PushRequest;
  /** One 429 for all streams over their limit, worded as Loki's per-stream rate limit. */
  readonly error?: IngestError;
}

/**
 * Per-stream rate limits (per_stream_rate_limit / _burst), checked entry by entry as Loki's
 * ingester does; entries over the limit are refused, the rest kept. Each ingester limits the
 * streams it owns, so several distributors cannot each grant a stream the full rate.
 */
export class StreamRateLimiter {
  /** Per tenant, per stream labels text (the same string object push after push). */
  private readonly buckets = new Map<string, Map<string, TokenBucket>>();
  private readonly now: () => number;
  private calls = 0;

  constructor(opts: { now?: () => number } = {}) {
    this.now = opts.now ?? Date.now;
  }

  /** Number of streams currently tracked (idle full buckets are dropped periodically). */
  get size(): number {
    let n = 0;
    for (const t of this.buckets.values()) n += t.size;
    return n;
  }

  apply(tenant: string, limits: StreamRateLimits, req: PushRequest): StreamRateLimitResult {
    const nowMs = this.now();
    if (++this.calls % 1024 === 0) this.prune(nowMs);
    const streams: PushStream[] = [];
    let firstMessage = '';
    let limitedStreams = 0;
    let refusedEntries = 0;
    let refusedBytesTotal = 0;
    let tenantBuckets = this.buckets.get(tenant);
    if (tenantBuckets === undefined) {
      tenantBuckets = new Map();
      this.buckets.set(tenant, tenantBuckets);
    }
    for (const stream of req.streams) {
      const text = stream.labelsText ?? labelsToString(stream.labels);
      let bucket = tenantBuckets.get(text);
      if (bucket === undefined) {
        bucket = new TokenBucket(
          limits.per_stream_rate_limit,
          limits.per_stream_rate_limit_burst,
          nowMs,
        );
        tenantBuckets.set(text, bucket);
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
        refusedEntries++;
      }
      if (kept === undefined) {
        streams.push(stream);
        continue;
      }
      if (limitedStreams++ === 0) {
        firstMessage = `Per stream rate limit exceeded (limit: ${formatByteSize(limits.per_stream_rate_limit)}/sec) while attempting to ingest for stream '${text}' totaling ${formatByteSize(refusedBytes)}, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased`;
      }
      refusedBytesTotal += refusedBytes;
      if (kept.length > 0) streams.push({ ...stream, entries: kept });
    }
    if (limitedStreams === 0) return { request: req };
    // Grouped as Loki's distributor groups validation errors: one stream's text as is.
    const message =
      limitedStreams === 1 ? firstMessage : `${limitedStreams} errors like: ${firstMessage}`;
    const error = new IngestError(
      'limit',
      'per_stream_rate_limit',
      message,
      refusedEntries,
      refusedBytesTotal,
    );
    return { request: { streams }, error };
  }

  private prune(nowMs: number): void {
    for (const [tenant, streams] of this.buckets) {
      for (const [text, bucket] of streams) if (bucket.isFull(nowMs)) streams.delete(text);
      if (streams.size === 0) this.buckets.delete(tenant);
    }
  }
}
