import type { Labels } from '@logsvc/api';

/** One stream of a log query's answer: entries in the order they are returned. */
export interface ResultStream {
  readonly labels: Labels;
  readonly entries: ReadonlyArray<readonly [bigint, string]>;
}

/** What a query returns, in the shapes the encoders (JSON, Parquet) write. */
export type QueryOutcome =
  | { readonly type: 'streams'; readonly streams: readonly ResultStream[] }
  | {
      readonly type: 'matrix';
      readonly series: ReadonlyArray<{
        readonly labels: Labels;
        readonly points: ReadonlyArray<readonly [number, number]>;
      }>;
    }
  | {
      readonly type: 'vector';
      readonly samples: ReadonlyArray<{
        readonly labels: Labels;
        readonly timestampMs: number;
        readonly value: number;
      }>;
    }
  | { readonly type: 'scalar'; readonly timestampMs: number; readonly value: number };

/** Loki's `totalEntriesReturned`: entries, samples, vector length, or 0 for a scalar. */
export function entriesReturned(outcome: QueryOutcome): number {
  switch (outcome.type) {
    case 'streams':
      return outcome.streams.reduce((n, s) => n + s.entries.length, 0);
    case 'matrix':
      return outcome.series.reduce((n, s) => n + s.points.length, 0);
    case 'vector':
      return outcome.samples.length;
    case 'scalar':
      return 0;
  }
}
