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
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly now: () => number;
  private calls = 0;

  constructor(opts: { now?: () => number } = {}) {
    this.now = opts.now ?? Date.now;
  }

  /** Number of streams currently tracked (idle full buckets are dropped periodically). */
  get size(): number {
    return this.buckets.size;
  }

  apply(tenant: string, limits: StreamRateLimits, req: PushRequest): StreamRateLimitResult {
    const nowMs = this.now();
    if (++this.calls % 1024 === 0) this.prune(nowMs);
    const streams: PushStream[] = [];
    let firstMessage = '';
    let limitedStreams = 0;
    let refusedEntries = 0;
    let refusedBytesTotal = 0;
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
      if (kept.length > 0) streams.push({ labels: stream.labels, entries: kept });
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
    for (const [key, bucket] of this.buckets) if (bucket.isFull(nowMs)) this.buckets.delete(key);
  }
}
