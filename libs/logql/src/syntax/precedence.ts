/** Binary operator precedence, lowest first (Loki's `expr.y` %left/%right declarations). */
import type { BinaryOp } from './ast';

const PRECEDENCE: Readonly<Record<BinaryOp, number>> = {
  or: 1,
  and: 2,
  unless: 2,
  '==': 3,
  '!=': 3,
  '>': 3,
  '>=': 3,
  '<': 3,
  '<=': 3,
  '+': 4,
  '-': 4,
  '*': 5,
  '/': 5,
  '%': 5,
  '^': 6,
};

export function binaryPrecedence(op: BinaryOp): number {
  return PRECEDENCE[op];
}

export function isBinaryOp(s: string): s is BinaryOp {
  return Object.prototype.hasOwnProperty.call(PRECEDENCE, s);
}

/** `^` is right-associative; every other binary operator is left-associative. */
export function isRightAssociative(op: BinaryOp): boolean {
  return op === '^';
}
