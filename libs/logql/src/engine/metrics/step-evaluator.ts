import type { StepVector } from './types';

/**
 * Evaluates one metric expression step by step. `load` reads what the expression needs (range
 * aggregations fetch their samples once, for all steps); `step(k)` is then called for
 * k = 0, 1, ... in increasing order and returns the vector at step k.
 */
export interface StepEvaluator {
  load(): Promise<void>;
  step(k: number): StepVector;
}
