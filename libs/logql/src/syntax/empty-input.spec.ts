import { describe, expect, it } from 'vitest';
import { parseExpr } from './parser';

describe('parse errors of an empty query', () => {
  it('have no position, as Loki reports them', () => {
    expect(() => parseExpr('')).toThrow(/^parse error : syntax error: unexpected \$end$/);
    expect(() => parseExpr(' ')).toThrow(
      /^parse error at line 1, col 2: syntax error: unexpected \$end$/,
    );
  });
});
