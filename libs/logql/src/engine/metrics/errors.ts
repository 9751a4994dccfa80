/**
 * Errors of metric evaluation. All are the user's doing (a query that needs an error filter,
 * too many series, ambiguous vector matching), so the HTTP layer answers 400 with `message`.
 */
import { labelsToString, type Labels } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';

/** A metric query Loki refuses while running it: `bad_request` (400). */
export class MetricQueryError extends LogsvcError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'MetricQueryError';
  }
}

/** `max_query_series` exceeded (Loki's `logqlmodel.NewSeriesLimitError`). */
export class SeriesLimitError extends MetricQueryError {
  constructor(readonly limit: number) {
    super(`maximum of series (${limit}) reached for a single query`);
    this.name = 'SeriesLimitError';
  }
}

/** A sample carrying `__error__` reached a metric result (Loki's `PipelineError`). */
export class PipelineError extends MetricQueryError {
  constructor(
    readonly errorType: string,
    readonly series: Labels,
  ) {
    super(
      `pipeline error: '${errorType}' for series: '${labelsToString(series)}'.\n` +
        `Use a label filter to intentionally skip this error. (e.g | __error__!="${errorType}").\n` +
        `To skip all potential errors you can match empty errors.(e.g __error__="")\n` +
        `The label filter can also be specified after unwrap. (e.g | unwrap latency | __error__="" )\n`,
    );
    this.name = 'PipelineError';
  }
}

/** Vector matching that Loki rejects (duplicates, implicit many-to-one). */
export class VectorMatchingError extends MetricQueryError {
  constructor(message: string) {
    super(message);
    this.name = 'VectorMatchingError';
  }
}

/** An argument of a function that cannot be used (e.g. a bad label_replace regex). */
export class InvalidFunctionArgumentError extends MetricQueryError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidFunctionArgumentError';
  }
}

/** The query was cancelled through its AbortSignal. */
export class QueryCanceledError extends Error {
  constructor() {
    super('context canceled');
    this.name = 'QueryCanceledError';
  }
}
