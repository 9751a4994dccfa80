/**
 * A sign before anything but a number: Loki's grammar has no unary operator, only the literals
 * `+NUMBER` and `-NUMBER`, so goyacc takes the sign and fails at the token after it,
 * `expecting NUMBER` (the only token it could take there).
 */
import { describe, expect, it } from 'vitest';
import type { NumberLiteral } from './ast';
import { parseExpr } from './parser';
import { parseErrorOf } from './testdata/parse-error-of';

describe('a leading sign', () => {
  it.each([
    ['-count_over_time({a="b"}[1m])', 2, 'unexpected COUNT_OVER_TIME, expecting NUMBER'],
    ['- count_over_time({a="b"}[1m])', 3, 'unexpected COUNT_OVER_TIME, expecting NUMBER'],
    ['+rate({a="b"}[1m])', 2, 'unexpected RATE, expecting NUMBER'],
    ['-sum(rate({a="b"}[1m]))', 2, 'unexpected SUM, expecting NUMBER'],
    ['-vector(1)', 2, 'unexpected VECTOR, expecting NUMBER'],
    [
      '-label_replace(vector(1), "a", "b", "c", "d")',
      2,
      'unexpected label_replace, expecting NUMBER',
    ],
    ['-(1)', 2, 'unexpected (, expecting NUMBER'],
    ['-{a="b"}', 2, 'unexpected {, expecting NUMBER'],
    ['-x', 2, 'unexpected IDENTIFIER, expecting NUMBER'],
    ['- -1', 3, 'unexpected -, expecting NUMBER'],
    ['--1', 2, 'unexpected -, expecting NUMBER'],
    ['- 5m', 3, 'unexpected DURATION, expecting NUMBER'],
    ['-', 2, 'unexpected $end, expecting NUMBER'],
    ['1 + -rate({a="b"}[1m])', 6, 'unexpected RATE, expecting NUMBER'],
    ['sum(-rate({a="b"}[1m]))', 6, 'unexpected RATE, expecting NUMBER'],
    // `-5m` and `-0` are durations to Loki's lexer (Go's time.ParseDuration takes "-0")
    ['-5m', 1, 'unexpected DURATION'],
    ['1-0', 2, 'unexpected DURATION'],
    // a label filter's number
    ['{a="b"} | x > -abc', 16, 'unexpected IDENTIFIER, expecting NUMBER'],
    ['{a="b"} | x = - 5m', 17, 'unexpected DURATION, expecting NUMBER'],
    ['{a="b"} | x != +', 17, 'unexpected $end, expecting NUMBER'],
  ])('%s fails at col %i', (q, col, reason) => {
    // Loki reads a duration's unit character by character, which leaves its line at 0.
    const line = reason.startsWith('unexpected DURATION') ? 0 : 1;
    expect(parseErrorOf(q)).toBe(
      `parse error at line ${line}, col ${col}: syntax error: ${reason}`,
    );
  });

  it('counts lines and columns after the sign as Loki does', () => {
    expect(parseErrorOf('-\n  rate({a="b"}[1m])')).toBe(
      'parse error at line 2, col 3: syntax error: unexpected RATE, expecting NUMBER',
    );
  });

  it('is part of a number literal', () => {
    expect((parseExpr('- 1') as NumberLiteral).value).toBe(-1);
    expect((parseExpr('+ .5') as NumberLiteral).value).toBe(0.5);
    expect(parseErrorOf('1 - - 1')).toBe('accepted');
    expect(parseErrorOf('{a="b"} | x > - 1.5')).toBe('accepted');
  });
});
