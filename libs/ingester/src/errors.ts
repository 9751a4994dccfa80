/** Why entries of a push were discarded; matches Loki's `discarded_samples` reasons. */
export type DiscardReason = 'too_far_behind' | 'out_of_order' | 'stream_limit';

/**
 * Entries of one stream the ingester refused. The other streams and entries of the same push
 * are still stored; the caller answers with `status` and `message` the way Loki does.
 */
export class IngestError extends Error {
  constructor(
    readonly status: 400 | 429,
    readonly reason: DiscardReason,
    message: string,
    /** Entries of the stream discarded for this reason. */
    readonly discardedEntries: number,
    /** Line bytes plus structured metadata bytes of those entries. */
    readonly discardedBytes: number,
  ) {
    super(message);
    this.name = 'IngestError';
  }
}

/** The write-ahead log could not be written or fsync'd; the push was not acknowledged. */
export class WalWriteError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WalWriteError';
  }
}

/** A checkpoint file is unreadable, so replay cannot restore what it held. */
export class WalCorruptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WalCorruptionError';
  }
}

/** Some chunks could still not be flushed after all retries. */
export class FlushError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FlushError';
  }
}

/** The ingester is not running (not started yet, or shut down). */
export class IngesterStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IngesterStoppedError';
  }
}
