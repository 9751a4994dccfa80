import type { Labels } from './labels';

/**
 * One log entry as it moves through push, ingester, chunks and queries. The line stays a
 * Buffer (usually a view into a larger buffer) so hot paths never build strings they drop.
 */
export interface LogEntry {
  /** Nanoseconds since the Unix epoch. */
  readonly timestampNs: bigint;
  readonly line: Buffer;
  /** Structured metadata, sorted by name; EMPTY_LABELS when there is none. */
  readonly structuredMetadata: Labels;
}

/** A stream's entries in one push request, in the order the client sent them. */
export interface PushStream {
  readonly labels: Labels;
  readonly entries: LogEntry[];
  /**
   * `labelsToString(labels)`, when whoever built the stream already has it (validation does):
   * the write path then looks the stream up by this same string object, whose hash V8 keeps.
   */
  readonly labelsText?: string;
  /**
   * Line plus structured-metadata bytes of `entries`, when whoever built the stream counted
   * them (validation does): the per-stream rate limit then charges the stream at once. A
   * stream made with other entries must leave it out.
   */
  readonly bytes?: number;
  /**
   * A slot the next stage of the write path may use to remember what it derived from this
   * stream's labels, kept from push to push for as long as the labels are cached: the decoder
   * hands out one per label string (validation keeps its verdict there), validation one per
   * validated stream (the ingester keeps the stream there). A stage checks `key` before it
   * trusts `value`.
   */
  readonly memo?: StreamMemo;
}

/** See `PushStream.memo`: `value` is what the stage that set `key` derived. */
export interface StreamMemo {
  key: object | null;
  value: unknown;
}

/**
 * A stream a decoder refused as a whole because its label string does not parse. Like Loki,
 * only that stream is dropped: validation counts and reports it, the rest of the request goes on.
 */
export interface RejectedStream {
  /** Loki's discard reason: `invalid_labels` or `duplicate_label_names`. */
  readonly reason: string;
  readonly message: string;
  readonly entries: readonly LogEntry[];
}

/**
 * A push body as received (one snappy block) and decompressed. Lines decoded from it are views
 * of `plain`, so a write-ahead log may record the small received block once in place of the
 * lines, and find each line again by its offset in `plain`.
 */
export interface PushBodySource {
  readonly snappy: Buffer;
  readonly plain: Buffer;
}

/** The decoded body of one push request, whatever its wire format. */
export interface PushRequest {
  readonly streams: PushStream[];
  /** Streams refused while decoding, in request order. */
  readonly rejected?: readonly RejectedStream[];
  /** The body the entries' lines are views of, when it was one snappy block (see the type). */
  readonly source?: PushBodySource;
}
