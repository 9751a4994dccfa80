/**
 * Sample-level semantics of LogQL's binary operators (Loki's `MergeBinOp`): arithmetic with
 * division and modulo by zero giving NaN, comparisons giving 0/1.
 */
import type { BinaryOp, ComparisonBinOp } from '../../syntax/ast';
import { applyScalar } from '../../syntax/validate';

const COMPARISONS: ReadonlySet<BinaryOp> = new Set(['==', '!=', '>', '>=', '<', '<=']);

export function isComparison(op: BinaryOp): op is ComparisonBinOp {
  return COMPARISONS.has(op);
}

export function isSetOp(op: BinaryOp): op is 'and' | 'or' | 'unless' {
  return op === 'and' || op === 'or' || op === 'unless';
}

/** Arithmetic result, or for a comparison 1 (true) / 0 (false); the parser folds literals with it. */
export const applyOp = applyScalar;
