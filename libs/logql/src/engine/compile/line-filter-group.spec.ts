import { describe, expect, it } from 'vitest';
import { LabelsBuilder } from '../../log/labels-builder';
import type { LineFilter, LogSelectorExpr } from '../../syntax/ast';
import { ParseError } from '../../syntax/errors';
import { parseExpr } from '../../syntax/parser';
import { compileLineFilterGroup, lokiText } from './line-filter-group';

function filtersOf(q: string): LineFilter[] {
  return (parseExpr(q) as LogSelectorExpr).stages as LineFilter[];
}

function errorOf(q: string): string {
  try {
    compileLineFilterGroup(filtersOf(q));
  } catch (err) {
    expect(err).toBeInstanceOf(ParseError);
    return (err as Error).message;
  }
  return 'built';
}

describe('compileLineFilterGroup', () => {
  it('builds a run of filters into one stage that keeps lines all of them accept', () => {
    const stage = compileLineFilterGroup(filtersOf('{a="b"} |= "x" !~ "y+" |~ "z|w"'));
    const lbs = new LabelsBuilder([]);
    expect(stage.process(0n, Buffer.from('x z'), lbs)).not.toBeNull();
    expect(stage.process(0n, Buffer.from('x yz'), lbs)).toBeNull();
    expect(stage.process(0n, Buffer.from('z'), lbs)).toBeNull();
  });

  it("prints the run as Loki's LineFilterExpr does: negative or chains are nested", () => {
    expect(
      lokiText(filtersOf('{a="b"} |= "a" or ip("::1") != "b" or "c" |~ "\\\\d" !> "<_>x"')),
    ).toBe('|= "a" or ip("::1") != "b" != "c" |~ "\\\\d" !> "<_>x"');
  });

  it.each([
    [
      '{a="b"} |~ "(" |~ "["',
      `stage '|~ "(" |~ "["' : error parsing regexp: missing closing ]: \`[\``,
    ],
    [
      '{a="b"} |~ "(" or "["',
      `stage '|~ "(" or "["' : error parsing regexp: missing closing ): \`(\``,
    ],
    [
      '{a="b"} !~ "(" or "["',
      `stage '!~ "(" !~ "["' : error parsing regexp: missing closing ]: \`[\``,
    ],
    ['{a="b"} |= ip("x") |~ "a"', `stage '|= ip("x") |~ "a"' : ip: invalid pattern: "x"`],
  ])('reports %s with the error Loki meets first', (q, reason) => {
    expect(errorOf(q)).toBe(`parse error : ${reason}`);
  });
});
