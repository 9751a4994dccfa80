import { LogsvcError } from '@logsvc/errors';

/** Why entries of a push were discarded; matches Loki's `discarded_samples` reasons. */
export type DiscardReason =
  'too_far_behind' | 'out_of_order' | 'stream_limit' | 'per_stream_rate_limit';

/**
 * Entries the ingester refused: of one stream, or of every stream over its per-stream rate
 * limit. The other streams and entries of the same push are still stored; the caller answers
 * with the kind's status (400 bad_request, 429 limit) and `message` the way Loki does.
 */
export class IngestError extends LogsvcError {
  constructor(
    kind: 'bad_request' | 'limit',
    readonly reason: DiscardReason,
    message: string,
    /** Entries discarded for this reason. */
    readonly discardedEntries: number,
    /** Line bytes plus structured metadata bytes of those entries. */
    readonly discardedBytes: number,
  ) {
    super(kind, message);
  }
}

/** The write-ahead log could not be written or fsync'd; the push was not acknowledged. */
export class WalWriteError extends LogsvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('internal', message, options);
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

/** The ingester is not running (not started yet, or shut down); a retry may find it up. */
export class IngesterStoppedError extends LogsvcError {
  constructor(message: string) {
    super('unavailable', message);
  }
}
