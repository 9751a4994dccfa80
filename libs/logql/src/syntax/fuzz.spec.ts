import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ParseError } from './errors';
import { parseExpr } from './parser';
import { CORPUS } from './testdata/corpus';
import { MAX_NESTING, TokenStream } from './token-stream';
import { FUNCTION_WORDS, ONE_CHAR_OPS, PARSER_FLAGS, RESERVED_WORDS, TWO_CHAR_OPS } from './tokens';

/**
 * What the fuzzed queries are made of: every operator, keyword and flag in the lexer's tables,
 * literals (good and bad), and characters it has no token for.
 */
const TOKENS = [
  ...ONE_CHAR_OPS,
  ...TWO_CHAR_OPS,
  '[5m]',
  '[',
  '"a"',
  '"(("',
  '`raw`',
  '"\\x"',
  '"',
  'app',
  'x',
  '__error__',
  '5',
  '-1.5',
  '0.5',
  '5m',
  '-5m',
  '1h30m',
  '20MB',
  '2.5KiB',
  '1e400',
  ...RESERVED_WORDS,
  ...PARSER_FLAGS,
  ...FUNCTION_WORDS,
  '#',
  '\n',
  '@',
  "'",
  'é',
  '\u{1F600}',
];

/** Parses; returns the ParseError or undefined, and fails the test on any other throw. */
function parseOnlyThrowsParseError(q: string): ParseError | undefined {
  try {
    parseExpr(q);
    return undefined;
  } catch (err) {
    if (!(err instanceof ParseError))
      throw new Error(`non-ParseError for ${JSON.stringify(q)}: ${String(err)}`);
    if (err.offset !== undefined) {
      expect(err.offset).toBeGreaterThanOrEqual(0);
      expect(err.offset).toBeLessThanOrEqual(q.length);
    }
    return err;
  }
}

const tokenQuery = fc
  .tuple(fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }), fc.constantFrom(' ', ''))
  .map(([toks, sep]) => toks.join(sep));

const mutated = fc
  .tuple(
    fc.constantFrom(...CORPUS.map((c) => c.q)),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), fc.constantFrom('', ...TOKENS), fc.boolean()), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map(([q, edits]) => {
    let out = q;
    for (const [at, len, insert, duplicate] of edits) {
      const i = out.length === 0 ? 0 : at % out.length;
      out = duplicate
        ? out.slice(0, i) + out.slice(i, i + len) + out.slice(i)
        : out.slice(0, i) + insert + out.slice(i + len);
    }
    return out;
  });

describe('fuzzing the parser', () => {
  it('only ever throws ParseError for random token sequences', () => {
    fc.assert(
      fc.property(tokenQuery, (q) => {
        parseOnlyThrowsParseError(q);
      }),
      { numRuns: 3000 },
    );
  });

  it('only ever throws ParseError for mutated corpus queries', () => {
    fc.assert(
      fc.property(mutated, (q) => {
        parseOnlyThrowsParseError(q);
      }),
      { numRuns: 3000 },
    );
  });

  it('only ever throws ParseError for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (q) => {
        parseOnlyThrowsParseError(q);
      }),
      { numRuns: 1000 },
    );
  });

  it('turns absurdly deep nesting into a parse error instead of a stack overflow', () => {
    const deep = '('.repeat(60_000) + 'vector(1)' + ')'.repeat(60_000);
    expect(parseOnlyThrowsParseError(deep)?.reason).toBe(
      `syntax error: expression nested too deeply (more than ${MAX_NESTING} levels)`,
    );
    const pow = Array.from({ length: 20_000 }, () => '2').join('^');
    expect(parseOnlyThrowsParseError(pow)).toBeInstanceOf(ParseError);
    const filters = Array.from({ length: 20_000 }, (_, i) => `l${i}="v"`).join(', ');
    expect(parseOnlyThrowsParseError(`{app="x"} | ${filters}`)).toBeInstanceOf(ParseError);
    const nested = `{app="x"} | ${'('.repeat(20_000)}a="b"${')'.repeat(20_000)}`;
    expect(parseOnlyThrowsParseError(nested)).toBeInstanceOf(ParseError);
    expect(
      parseOnlyThrowsParseError(`count_over_time(${'('.repeat(20_000)}{a="b"}`),
    ).toBeInstanceOf(ParseError);
  });
});

describe('parser work grows linearly with input size', () => {
  /**
   * Tokens the parser looks at while parsing `q` (which must be valid): a count of work that,
   * unlike a timing, does not depend on how busy the machine is. Backtracking or re-scanning
   * would make it grow faster than the input.
   */
  function tokenLooks(q: string): number {
    const peek = vi.spyOn(TokenStream.prototype, 'peek');
    try {
      parseExpr(q);
      return peek.mock.calls.length;
    } finally {
      peek.mockRestore();
    }
  }

  const shapes: Record<string, (n: number) => string> = {
    'line filters': (n) => `{app="x"}` + ' |= "needle" != `hay`'.repeat(n),
    'label filters': (n) => `{app="x"} | json` + ' | s>=4 and l>2ms or z<2KiB'.repeat(n),
    'binary operators': (n) =>
      Array.from({ length: n }, (_, i) => `sum(rate({app="a${i}"} |= "e" [5m]))`).join(' + '),
    'stream selector': (n) =>
      `{${Array.from({ length: n }, (_, i) => `l${i}=~"v${i}.+"`).join(', ')}}`,
    label_format: (n) =>
      `{app="x"} | label_format ${Array.from({ length: n }, (_, i) => `a${i}="{{.b}}"`).join(', ')}`,
  };

  it.each(Object.keys(shapes))('%s: 10x the input costs at most ~10x the work', (name) => {
    const make = shapes[name];
    const small = make(300);
    const large = make(3000);
    expect(large.length).toBeLessThan(131072);
    const ratio = tokenLooks(large) / tokenLooks(small);
    expect(ratio).toBeLessThan(10.5);
  });
});
