/** What every evaluator of one query shares: the step grid, the source, limits, stats. */
import type { Matcher } from '@logsvc/api';
import type { MetadataEquals } from '@logsvc/chunk';
import type { SampleExtractor } from '../../log/sample-extractor';
import type { MetricExpr, RangeAggregation } from '../../syntax/ast';
import type { MemoryBudget } from '../memory-budget';
import type { LogSource } from '../source';
import type { QueryStats } from '../stats';
import { QueryCanceledError } from './errors';
import type { StepEvaluator } from './step-evaluator';

/** Evaluation times `startNs + k * stepNs` for `k < count`. */
export class StepGrid {
  readonly count: number;
  /** Each step's time in milliseconds (Go's integer division of nanoseconds). */
  readonly timestampsMs: number[] = [];

  constructor(
    readonly startNs: bigint,
    readonly endNs: bigint,
    readonly stepNs: bigint,
  ) {
    this.count = stepNs <= 0n || endNs <= startNs ? 1 : Number((endNs - startNs) / stepNs) + 1;
    for (let k = 0; k < this.count; k++) {
      this.timestampsMs.push(Number((startNs + BigInt(k) * stepNs) / 1_000_000n));
    }
  }

  /** The step as a number of nanoseconds (0 for an instant query). */
  get stepNsNumber(): number {
    return this.count === 1 ? 0 : Number(this.stepNs);
  }
}

/** A range aggregation's extractor and the stream matchers it reads. */
export interface CompiledSampleQuery {
  readonly matchers: readonly Matcher[];
  readonly extractor: SampleExtractor;
  /** Bytes every line that gives a sample contains (the pipeline's line prefilter). */
  readonly lineContains?: Buffer;
  /** Without `lineContains`: literals of which each such line contains one. */
  readonly lineContainsAny?: readonly Buffer[];
  /** Structured metadata every entry that gives a sample has (`SelectParams.metadataEquals`). */
  readonly metadataEquals?: readonly MetadataEquals[];
}

/**
 * Builds the sample extractor of a range aggregation; `grouping` is a `by`/`without` pushed
 * down from an enclosing `sum` (labels can then be reduced while extracting).
 */
export type SampleExtractorBuilder = (
  expr: RangeAggregation,
  grouping?: { readonly labels: readonly string[]; readonly without: boolean },
) => CompiledSampleQuery;

export interface EvalContext {
  readonly tenant: string;
  readonly grid: StepGrid;
  readonly source: LogSource;
  readonly stats: QueryStats;
  readonly signal?: AbortSignal;
  /** What the query's series and samples may hold (`max_query_memory_bytes`). */
  readonly budget: MemoryBudget;
  readonly buildExtractor: SampleExtractorBuilder;
  /**
   * The query frontend's results for sub-expressions it had evaluated downstream: a node it
   * answers is not evaluated here (see `evaluateOverDownstream`).
   */
  readonly downstream?: (expr: MetricExpr) => StepEvaluator | undefined;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new QueryCanceledError();
}
