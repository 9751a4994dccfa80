import type { TailFrame } from '@logsvc/query-codec';

/** A tail request after its parameters are parsed (Loki's `logproto.TailRequest`). */
export interface TailRequest {
  readonly tenant: string;
  /** A log query: stream selector and pipeline. */
  readonly query: string;
  /** Past entries from here on (the newest `limit` of them) come first. */
  readonly startNs: bigint;
  readonly limit: number;
  /** Live entries go out once they are this old (0–5 s), so late ones can be merged in order. */
  readonly delayForMs: number;
  /**
   * `X-Loki-Response-Encoding-Flags: categorize-labels`: entries carry their stream's labels
   * alone, their structured metadata and parsed labels in `categories`.
   */
  readonly categorizeLabels?: boolean;
}

export type { DroppedEntry, TailEntry, TailFrame } from '@logsvc/query-codec';

/** Where a tail writes (the WebSocket). */
export interface TailOutput {
  /** Bytes handed to `send` that the client has not taken yet. */
  bufferedBytes(): number;
  send(frame: TailFrame): void;
  /** Ends the tail because of `err` (Loki closes the socket with 1011 and the error text). */
  fail(err: Error): void;
}
