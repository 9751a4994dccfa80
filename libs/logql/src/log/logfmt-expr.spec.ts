import { describe, expect, it } from 'vitest';
import { logfmtExpressionKey } from './logfmt-expr';

describe('logfmtExpressionKey', () => {
  it('reads a key or a quoted string, around spaces', () => {
    expect(logfmtExpressionKey('level')).toBe('level');
    expect(logfmtExpressionKey(' a_1 ')).toBe('a_1');
    expect(logfmtExpressionKey('"user-agent"')).toBe('user-agent');
    expect(logfmtExpressionKey('"a]')).toBe('a');
    expect(logfmtExpressionKey('a "b"')).toBe('a%!(EXTRA string=b)');
  });

  // Each text below is what Loki 3.4.6 answers for `| logfmt v="<expression>"`.
  it.each([
    ['', 'syntax error: unexpected $end, expecting STRING or KEY'],
    [' ', 'syntax error: unexpected $end, expecting STRING or KEY'],
    ['1a', 'syntax error: unexpected $end, expecting STRING or KEY'],
    ['é', 'syntax error: unexpected $end, expecting STRING or KEY'],
    ['[0]', 'syntax error: unexpected $end, expecting STRING or KEY'],
    ['a b', 'syntax error: unexpected KEY'],
    ['"a]b"', 'syntax error: unexpected KEY'],
    ['a.b', 'unexpected char .'],
    ['a-b', 'unexpected char -'],
    ['a,b', 'unexpected char ,'],
    ['a=b', 'unexpected char ='],
  ])('refuses %j with %s', (expression, message) => {
    expect(() => logfmtExpressionKey(expression)).toThrow(message);
  });
});
