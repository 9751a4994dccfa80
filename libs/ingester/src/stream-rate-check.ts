import type { LogEntry } from '@logsvc/api';
import { datasizeString as formatByteSize } from '@logsvc/gocompat';
import { entrySize, TokenBucket } from '@logsvc/push';
import type { StreamRateLimits } from './config';
import { IngestError } from './errors';

/**
 * Per-stream rate limits (per_stream_rate_limit / _burst) for one push, checked entry by entry
 * as Loki's ingester does: entries over the limit are refused, the rest kept. The bucket lives
 * on the stream (as Loki's stream limiter does), so checking it costs no lookup of its own;
 * each ingester limits the streams it owns, so several distributors cannot each grant a
 * stream the full rate. Refusals of the whole push become one 429.
 */
export class StreamRateCheck {
  private firstMessage = '';
  private limitedStreams = 0;
  private refusedEntries = 0;
  private refusedBytes = 0;

  constructor(
    private readonly limits: StreamRateLimits,
    private readonly nowMs: number,
  ) {}

  /** A full bucket for a stream that has none yet. */
  newBucket(): TokenBucket {
    const l = this.limits;
    return new TokenBucket(l.per_stream_rate_limit, l.per_stream_rate_limit_burst, this.nowMs);
  }

  /**
   * The entries the bucket allows now, in order: `entries` itself when it allows them all.
   * `labelsText` names the stream in the error message; `bytes`, when given, is the entries'
   * line plus structured-metadata bytes.
   */
  allowed(
    bucket: TokenBucket,
    labelsText: string,
    entries: readonly LogEntry[],
    bytes?: number,
  ): readonly LogEntry[] {
    const { limits, nowMs } = this;
    bucket.setLimits(limits.per_stream_rate_limit, limits.per_stream_rate_limit_burst, nowMs);
    // Entry by entry, all pass exactly when their sum fits: charge it at once when known.
    if (bytes !== undefined && bucket.allowN(nowMs, bytes)) return entries;
    let kept: LogEntry[] | undefined;
    let refusedBytes = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      const size = entrySize(e.line, e.structuredMetadata);
      if (bucket.allowN(nowMs, size)) {
        kept?.push(e);
        continue;
      }
      kept ??= entries.slice(0, i);
      refusedBytes += size;
      this.refusedEntries++;
    }
    if (kept === undefined) return entries;
    if (this.limitedStreams++ === 0) {
      this.firstMessage = `Per stream rate limit exceeded (limit: ${formatByteSize(limits.per_stream_rate_limit)}/sec) while attempting to ingest for stream '${labelsText}' totaling ${formatByteSize(refusedBytes)}, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased`;
    }
    this.refusedBytes += refusedBytes;
    return kept;
  }

  /** One 429 for all streams over their limit so far, grouped as Loki's distributor groups errors. */
  error(): IngestError | undefined {
    if (this.limitedStreams === 0) return undefined;
    const message =
      this.limitedStreams === 1
        ? this.firstMessage
        : `${this.limitedStreams} errors like: ${this.firstMessage}`;
    return new IngestError(
      'limit',
      'per_stream_rate_limit',
      message,
      this.refusedEntries,
      this.refusedBytes,
    );
  }
}
