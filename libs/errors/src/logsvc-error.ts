import { type ErrorKind, HTTP_STATUS_OF_KIND } from './kinds';

export interface LogsvcErrorOptions {
  readonly cause?: unknown;
  /**
   * The HTTP status when it is set per tenant rather than by kind (Loki's
   * `block_ingestion_status_code`, which may even be 200); otherwise the kind's status.
   */
  readonly status?: number;
}

/**
 * The base of every error a library raises at a request: a kind and Loki's exact text. Library
 * code throws subclasses (ParseError, PushError, ...); callers never look at HTTP statuses.
 */
export class LogsvcError extends Error {
  readonly kind: ErrorKind;
  private readonly statusOverride: number | undefined;

  constructor(kind: ErrorKind, message: string, options: LogsvcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.kind = kind;
    this.statusOverride = options.status;
  }

  /** The HTTP status this error is answered with. */
  get httpStatus(): number {
    return this.statusOverride ?? HTTP_STATUS_OF_KIND[this.kind];
  }
}

/** The kind of any thrown value: a LogsvcError's own, `internal` for everything else. */
export function kindOf(err: unknown): ErrorKind {
  return err instanceof LogsvcError ? err.kind : 'internal';
}

/** A LogsvcError of `kind` with the text of any thrown value, kept as is if already one. */
export function asLogsvcError(err: unknown, kind: ErrorKind, prefix = ''): LogsvcError {
  if (err instanceof LogsvcError) return err;
  const text = err instanceof Error ? err.message : String(err);
  return new LogsvcError(kind, prefix + text, { cause: err });
}
