import type { SubQuery } from './sub-query';

/**
 * The read endpoints a querier answers for a query frontend besides queries, by Loki's route
 * names: the frontend sends them on as they came (their parameters), the querier parses them
 * with this codec, so that their checks, defaults and error texts are the querier's own.
 */
export const READ_JOB_KINDS = [
  'labels',
  'label_values',
  'series',
  'index_stats',
  'index_volume',
  'index_volume_range',
  'detected_fields',
  'detected_field_values',
  'detected_labels',
  'patterns',
] as const;
export type ReadJobKind = (typeof READ_JOB_KINDS)[number];

/** A sub-query (range or instant) the frontend split, sharded and checked: run as it is. */
export interface SubQueryJob {
  readonly kind: 'sub_query';
  readonly query: SubQuery;
}

/** A read request of `kind`, for `tenants`. */
export interface ReadJob {
  readonly kind: ReadJobKind;
  readonly tenants: readonly string[];
  /** The request's parameters in Go's `r.Form` order: form body values first, then the URL's. */
  readonly params: readonly (readonly [string, string])[];
  /** The path's name (`label/<name>/values`, `detected_field/<name>/values`), else ''. */
  readonly name: string;
  /** Asked on a legacy path (`/api/prom/label...`): Loki answers `{"values":[...]}`. */
  readonly legacy: boolean;
}

/** What a query frontend hands a querier: Loki's httpgrpc request, typed. */
export type QueryJob = SubQueryJob | ReadJob;

/**
 * A querier's answer: the status and the codec's encoding of the result (the JSON a querier
 * asked over HTTP writes), or the error's status and plain text.
 */
export interface QueryJobAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

export const PLAIN_TEXT_TYPE = 'text/plain; charset=utf-8';

/** The answer of a job that failed with `status` and `message`. */
export function errorAnswer(status: number, message: string): QueryJobAnswer {
  return { status, contentType: PLAIN_TEXT_TYPE, body: Buffer.from(message) };
}

/** The first value of each parameter, as Go's `r.FormValue` (the codec's ParamReader). */
export function jobParamReader(
  params: readonly (readonly [string, string])[],
): (name: string) => string | undefined {
  return (name) => params.find(([n]) => n === name)?.[1];
}

/** Every value of a parameter, in order (`match[]` of series). */
export function jobParamValues(
  params: readonly (readonly [string, string])[],
  name: string,
): string[] {
  return params.filter(([n]) => n === name).map(([, v]) => v);
}

/** The LogQL text a job is about (its `query` parameter), for logs and query stats. */
export function jobQueryText(job: QueryJob): string {
  return job.kind === 'sub_query' ? job.query.query : (jobParamReader(job.params)('query') ?? '');
}
