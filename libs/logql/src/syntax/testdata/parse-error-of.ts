import { expect } from 'vitest';
import { ParseError } from '../errors';
import { parseExpr } from '../parser';

/** The ParseError message `parse` throws for `q` (failing on any other throw), or 'accepted'. */
export function parseErrorOf(q: string, parse: (q: string) => unknown = parseExpr): string {
  try {
    parse(q);
  } catch (err) {
    expect(err).toBeInstanceOf(ParseError);
    return (err as Error).message;
  }
  return 'accepted';
}
