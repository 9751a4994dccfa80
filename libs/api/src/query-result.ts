/**
 * The answer of a LogQL query as the engine produces it and the encoders (JSON, Parquet)
 * read it: typed values, not yet JSON. `query-responses.ts` has the JSON body shapes.
 */
import type { Labels } from './labels';

/** The labels an entry had besides its stream's, for `categorize-labels` encoding. */
export interface EntryLabelCategories {
  /** Omitted when empty. */
  readonly structuredMetadata?: Labels;
  /** Labels set by the pipeline, including `__error__` / `__error_details__`; omitted when empty. */
  readonly parsed?: Labels;
}

/** `[timestamp ns, line]`, or with label categories when the query asked for them. */
export type ResultEntry =
  | readonly [timestampNs: bigint, line: string]
  | readonly [timestampNs: bigint, line: string, categories: EntryLabelCategories];

/** One stream of a log query's answer: entries in the order they are returned. */
export interface ResultStream {
  readonly labels: Labels;
  readonly entries: readonly ResultEntry[];
}

/** One series of a range metric query: `[timestamp ms, value]` points, oldest first. */
export interface ResultSeries {
  readonly labels: Labels;
  readonly points: ReadonlyArray<readonly [timestampMs: number, value: number]>;
}

/** One sample of an instant metric query. */
export interface ResultSample {
  readonly labels: Labels;
  readonly timestampMs: number;
  readonly value: number;
}

export type QueryResult =
  | { readonly type: 'streams'; readonly streams: readonly ResultStream[] }
  | { readonly type: 'matrix'; readonly series: readonly ResultSeries[] }
  | { readonly type: 'vector'; readonly samples: readonly ResultSample[] }
  | { readonly type: 'scalar'; readonly timestampMs: number; readonly value: number };

/** Loki's `totalEntriesReturned`: entries, samples, vector length, or 0 for a scalar. */
export function resultEntryCount(result: QueryResult): number {
  switch (result.type) {
    case 'streams':
      return result.streams.reduce((n, s) => n + s.entries.length, 0);
    case 'matrix':
      return result.series.reduce((n, s) => n + s.points.length, 0);
    case 'vector':
      return result.samples.length;
    case 'scalar':
      return 0;
  }
}
