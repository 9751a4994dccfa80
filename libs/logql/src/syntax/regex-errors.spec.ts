/**
 * Invalid regexes (and regexp/pattern parsers) refused while parsing, with Loki 3.4's texts:
 * matchers through Prometheus' `labels.NewMatcher` (the value parsed alone), the regexp and
 * pattern parsers through `newLabelParserExpr`, label_replace through `regexp.Compile` of the
 * anchored text, reported after the parse by `validateExpr`.
 */
import { describe, expect, it } from 'vitest';
import { parseWithoutValidation } from './parser';
import { parseErrorOf } from './testdata/parse-error-of';

describe('invalid regexes at parse time', () => {
  it.each([
    // stream matchers
    ['{app=~"(unclosed"}', 'error parsing regexp: missing closing ): `(unclosed`'],
    ['{app="a", b!~"a**"}', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['{app=~"x)"}', 'error parsing regexp: unexpected ): `x)`'],
    ['{app=~"[a"}', 'error parsing regexp: missing closing ]: `[a`'],
    ['{app=~"(?<n"}', 'error parsing regexp: invalid named capture: `(?<n`'],
    // label filters, also after unwrap
    ['{app="a"} | logfmt | level=~"("', 'error parsing regexp: missing closing ): `(`'],
    ['{app="a"} | logfmt | level!~"\\\\q"', 'error parsing regexp: invalid escape sequence: `\\q`'],
    [
      'sum_over_time({app="a"} | unwrap x | y=~"[z-a]" [1m])',
      'error parsing regexp: invalid character class range: `z-a`',
    ],
    // drop / keep matchers
    [
      '{app="a"} | keep a=~"*"',
      'error parsing regexp: missing argument to repetition operator: `*`',
    ],
    [
      '{app="a"} | drop a!~"(?i"',
      'error parsing regexp: invalid or unsupported Perl syntax: `(?i`',
    ],
  ])('%s', (q, reason) => {
    expect(parseErrorOf(q)).toBe(`parse error : ${reason}`);
  });

  it('accepts a group name used twice in a matcher, as Go does', () => {
    expect(parseErrorOf('{app=~"(?P<n>a)|(?P<n>b)"}')).toBe('accepted');
  });
});

describe('regexp and pattern parsers at parse time', () => {
  it.each([
    [
      '{app="a"} | regexp "(?P<a>"',
      'invalid regexp parser: error parsing regexp: missing closing ): `(?P<a>`',
    ],
    [
      '{app="a"} | regexp "(a)"',
      'invalid regexp parser: at least one named capture must be supplied',
    ],
    [
      '{app="a"} | regexp "plain"',
      'invalid regexp parser: at least one named capture must be supplied',
    ],
    ['{app="a"} | regexp "(?P<1a>x)"', "invalid regexp parser: invalid extracted label name '1a'"],
    [
      '{app="a"} | regexp "(?P<a>x)(?P<a>y)"',
      "invalid regexp parser: duplicate extracted label name 'a'",
    ],
    [
      '{app="a"} | pattern "no captures <_>"',
      'invalid pattern parser: at least one capture is required',
    ],
    [
      '{app="a"} | pattern "<a><b>"',
      "invalid pattern parser: found consecutive capture '<a><b>': invalid expression",
    ],
    [
      '{app="a"} | pattern "<a> <a>"',
      'invalid pattern parser: duplicate capture name (a): invalid expression',
    ],
    [
      'rate({app="a"} | regexp "x" [1m])',
      'invalid regexp parser: at least one named capture must be supplied',
    ],
  ])('%s', (q, reason) => {
    expect(parseErrorOf(q)).toBe(`parse error : ${reason}`);
    // Loki builds these parsers while parsing, before any validation.
    expect(parseErrorOf(q, parseWithoutValidation)).toBe(`parse error : ${reason}`);
  });

  it('fails at the first bad stage, before a later syntax error', () => {
    expect(parseErrorOf('{app="a"} | regexp "(a)" | pattern "<a><b>"')).toBe(
      'parse error : invalid regexp parser: at least one named capture must be supplied',
    );
    expect(parseErrorOf('{app="a"} | regexp "(a)" |')).toBe(
      'parse error : invalid regexp parser: at least one named capture must be supplied',
    );
  });
});

describe('label_replace regex', () => {
  const q = (regex: string, tail = ''): string =>
    `label_replace(rate({app="a"}[1m]), "dst", "$1", "src", "${regex}")${tail}`;

  it('quotes the anchored regex as Go compiles it', () => {
    expect(parseErrorOf(q('('))).toBe(
      'parse error : invalid regex in label_replace: error parsing regexp: missing closing ): `^(?:()$`',
    );
    expect(parseErrorOf(q('a**'))).toBe(
      'parse error : invalid regex in label_replace: error parsing regexp: invalid nested repetition operator: `**`',
    );
  });

  it('is checked after the parse, as Loki validates it', () => {
    expect(parseErrorOf(q('(', ' +'))).toBe(
      'parse error at line 1, col 62: syntax error: unexpected $end',
    );
    expect(parseErrorOf(q('('), parseWithoutValidation)).toBe('accepted');
    // before the selector checks of the expression it wraps
    expect(parseErrorOf(q('(').replace('{app="a"}', '{app=~".*"}'))).toMatch(
      /^parse error : invalid regex in label_replace: /,
    );
  });
});
