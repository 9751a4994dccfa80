/** Which decoder a push body goes through. */
export type PushFormat = 'loki' | 'otlp';

/** One push request as the HTTP layer received it. */
export interface PushInput {
  readonly tenant: string;
  readonly format: PushFormat;
  /** The raw body: a Buffer, or whatever a non-raw body parser made of it (refused by type). */
  readonly body: unknown;
  readonly contentType: string | undefined;
  readonly contentEncoding: string | undefined;
}
