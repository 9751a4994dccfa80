/**
 * Values flowing through the metric evaluator. A step evaluator yields one `StepVector` per
 * evaluation time; the query entry point joins them into a matrix (range queries) or returns
 * the single vector (instant queries).
 */
import type { Labels } from '@logsvc/api';
import { DEFAULT_LIMITS } from '@logsvc/config';
import type { MemoryBudget } from '../memory-budget';

/** A series' label set with its canonical key (equal sets have equal keys). */
export interface Metric {
  readonly labels: Labels;
  readonly key: string;
}

/** The samples of one evaluation step: `metrics[i]` has value `values[i]`. */
export interface StepVector {
  readonly metrics: Metric[];
  readonly values: number[];
}

export interface MatrixSeries {
  readonly labels: Labels;
  /** `[timestamp ms, value]` pairs in time order. */
  readonly points: Array<[number, number]>;
}

export interface VectorSample {
  readonly labels: Labels;
  readonly timestampMs: number;
  readonly value: number;
}

export type MetricResult =
  | { readonly type: 'matrix'; readonly series: MatrixSeries[] }
  | { readonly type: 'vector'; readonly samples: VectorSample[] }
  | { readonly type: 'scalar'; readonly timestampMs: number; readonly value: number };

export interface MetricQueryParams {
  readonly tenant: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly stepNs: bigint;
  readonly kind: 'instant' | 'range';
  readonly signal?: AbortSignal;
  /** `max_query_series`; default 500. */
  readonly maxSeries?: number;
  /** What the series and samples built may hold (`max_query_memory_bytes`); default: any. */
  readonly budget?: MemoryBudget;
}

/** `limits_config.max_query_series` at its default. */
export const DEFAULT_MAX_QUERY_SERIES = DEFAULT_LIMITS.max_query_series;

/** Shared by every empty step: frozen so that no evaluator can add to it by mistake. */
export const EMPTY_VECTOR: StepVector = Object.freeze({
  metrics: Object.freeze([]) as unknown as Metric[],
  values: Object.freeze([]) as unknown as number[],
});
