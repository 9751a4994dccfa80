/**
 * Sample-level semantics of LogQL's binary operators (Loki's `MergeBinOp`): arithmetic with
 * division and modulo by zero giving NaN, comparisons giving 0/1.
 */
import type { BinaryOp, ComparisonBinOp } from '../../syntax/ast';

const COMPARISONS: ReadonlySet<BinaryOp> = new Set(['==', '!=', '>', '>=', '<', '<=']);

export function isComparison(op: BinaryOp): op is ComparisonBinOp {
  return COMPARISONS.has(op);
}

export function isSetOp(op: BinaryOp): op is 'and' | 'or' | 'unless' {
  return op === 'and' || op === 'or' || op === 'unless';
}

/** Go's `math.Pow` where it differs from `Math.pow` (1^x and (-1)^±Inf are 1). */
function goPow(x: number, y: number): number {
  if (x === 1 || y === 0) return 1;
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1;
  return Math.pow(x, y);
}

/** Arithmetic result, or for a comparison 1 (true) / 0 (false). */
export function applyOp(op: BinaryOp, l: number, r: number): number {
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return r === 0 ? NaN : l / r;
    case '%':
      return r === 0 ? NaN : l % r;
    case '^':
      return goPow(l, r);
    case '==':
      return l === r ? 1 : 0;
    case '!=':
      return l !== r ? 1 : 0;
    case '>':
      return l > r ? 1 : 0;
    case '>=':
      return l >= r ? 1 : 0;
    case '<':
      return l < r ? 1 : 0;
    case '<=':
      return l <= r ? 1 : 0;
    default:
      return NaN;
  }
}
