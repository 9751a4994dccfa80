import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureGroupNames, compileRegex, RegexSyntaxError } from './regex';
import { extractLiteralPrefilter } from './literal';

describe('compileRegex', () => {
  it('matches anywhere by default, like a line filter', () => {
    const re = compileRegex('err(or)?');
    expect(re.test('an error here')).toBe(true);
    expect(re.test(Buffer.from('an error here'))).toBe(true);
    expect(re.test('fine')).toBe(false);
  });

  it('matches the whole input when anchored, like a label matcher', () => {
    const re = compileRegex('a|b', { anchored: true });
    expect(re.test('a')).toBe(true);
    expect(re.test('ab')).toBe(false);
    expect(re.test(Buffer.from('b'))).toBe(true);
    expect(compileRegex('.*', { anchored: true }).test('')).toBe(true);
  });

  it('supports Go named groups and exposes groups by index and name', () => {
    const re = compileRegex('(?P<method>[A-Z]+) (?P<path>\\S+)( (\\d+))?');
    expect(re.groupNames).toEqual(['', 'method', 'path', '', '']);
    const m = re.exec('-> GET /api/v1 200');
    expect(m?.index).toBe(3);
    expect(m?.groups).toEqual(['GET /api/v1 200', 'GET', '/api/v1', ' 200', '200']);
    expect(m?.named).toEqual({ method: 'GET', path: '/api/v1' });
    expect(re.exec('nothing here')).toBeUndefined();
  });

  it('returns Buffer groups with byte offsets for Buffer input', () => {
    const m = compileRegex('(?P<w>é+)').exec(Buffer.from('aéé'));
    expect(m?.index).toBe(1);
    expect(m?.named.w?.toString()).toBe('éé');
  });

  it('honours Go inline flags (?i) (?s) (?m)', () => {
    expect(compileRegex('(?i)error').test('ERROR')).toBe(true);
    expect(compileRegex('error').test('ERROR')).toBe(false);
    expect(compileRegex('a.b').test('a\nb')).toBe(false);
    expect(compileRegex('(?s)a.b').test('a\nb')).toBe(true);
    expect(compileRegex('^b').test('a\nb')).toBe(false);
    expect(compileRegex('(?m)^b$').test('a\nb')).toBe(true);
  });

  it('runs in linear time on inputs that make backtracking engines explode', () => {
    const re = compileRegex('(a+)+$');
    const input = 'a'.repeat(50_000) + 'b';
    expect(re.test(input)).toBe(false);
  });

  it('rejects what RE2 does not support with Go-worded errors', () => {
    expect(() => compileRegex('(a')).toThrow(
      new RegexSyntaxError('error parsing regexp: missing closing ): `(a`'),
    );
    expect(() => compileRegex('a**')).toThrow(
      'error parsing regexp: invalid nested repetition operator: `**`',
    );
    expect(() => compileRegex('*a')).toThrow(
      'error parsing regexp: missing argument to repetition operator: `*`',
    );
    expect(() => compileRegex('(?=a)')).toThrow(
      'error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    );
    expect(() => compileRegex('(a)\\1')).toThrow(
      'error parsing regexp: invalid escape sequence: `\\1`',
    );
    expect(() => compileRegex('[z-a]')).toThrow(
      'error parsing regexp: invalid character class range: `z-a`',
    );
  });

  it('quotes an anchored regex as written, as Prometheus matchers parse the value alone', () => {
    const errorOf = (src: string): string => {
      try {
        compileRegex(src, { anchored: true });
      } catch (err) {
        return (err as Error).message;
      }
      return 'compiled';
    };
    expect(errorOf('(unclosed')).toBe('error parsing regexp: missing closing ): `(unclosed`');
    expect(errorOf('a)')).toBe('error parsing regexp: unexpected ): `a)`');
    expect(errorOf('[a')).toBe('error parsing regexp: missing closing ]: `[a`');
    expect(errorOf('a\\')).toBe(
      'error parsing regexp: trailing backslash at end of expression: `a\\`',
    );
    expect(errorOf('(?i')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?i`');
    expect(errorOf('x(?<n')).toBe('error parsing regexp: invalid named capture: `(?<n`');
  });

  it('refuses what Go refuses though RE2 takes it: \\C, non-ASCII group names', () => {
    expect(() => compileRegex('a(?P<é>x)', { anchored: true })).toThrow(
      new RegexSyntaxError('error parsing regexp: invalid named capture: `(?P<é>`'),
    );
    expect(() => compileRegex('[(?<é>](?<ü>x)')).toThrow(
      'error parsing regexp: invalid named capture: `(?<ü>`',
    );
    expect(compileRegex('\\(?<é>x\\)').test('<é>x)')).toBe(true);
    expect(() => compileRegex('[\\C]')).toThrow(
      'error parsing regexp: invalid escape sequence: `\\C`',
    );
    expect(() => compileRegex('a\\Cb')).toThrow(
      'error parsing regexp: invalid escape sequence: `\\C`',
    );
    expect(compileRegex('\\\\C[[:alpha:]\\]]\\QC\\C\\E').test('\\C]C\\C')).toBe(true);
  });

  it('accepts a group name used twice, as Go does', () => {
    const re = compileRegex('(?P<n>a)-(?P<n>b)', { anchored: true });
    expect(re.test('a-b')).toBe(true);
    expect(re.groupNames).toEqual(['', 'n', 'n']);
    expect(compileRegex('(?P<n>a)\\((?P<n>b)[(?P<n>]').exec('a(bn')?.groups).toEqual([
      'a(bn',
      'a',
      'b',
    ]);
  });

  it('offers a required literal for prefiltering when one is certain', () => {
    expect(compileRegex('level=error .* took').literalPrefilter).toBe('level=error ');
    expect(extractLiteralPrefilter('foo.*barbaz')).toBe('barbaz');
    expect(extractLiteralPrefilter('GET /api/v\\d+')).toBe('GET /api/v');
    expect(extractLiteralPrefilter('ab*c')).toBeUndefined();
    expect(extractLiteralPrefilter('abc?d')).toBe('ab');
    expect(extractLiteralPrefilter('foo|bar')).toBeUndefined();
    expect(extractLiteralPrefilter('(?i)error')).toBeUndefined();
    expect(extractLiteralPrefilter('x(y|z)+wvu')).toBe('wvu');
    expect(extractLiteralPrefilter('[abc]+')).toBeUndefined();
    expect(extractLiteralPrefilter('ab(?i)cdef')).toBeUndefined();
    expect(extractLiteralPrefilter('x\\pLyz')).toBe('yz');
    expect(extractLiteralPrefilter('\\x41bc\\p{Greek}de')).toBe('bc');
    expect(extractLiteralPrefilter('\\Q*.*\\Ekey=')).toBe('key=');
  });

  it('offers no literal past a flag directive, which a quantifier skips over', () => {
    // RE2 reads `aa(?)*` as `aa*`: it matches "a".
    for (const src of ['aa(?)*', 'xaa(?s)+', 'ab(?-s)?']) {
      expect(compileRegex(src).literalPrefilter, src).toBeUndefined();
    }
  });

  it('never takes the digits of a {n,m} repetition for a literal', () => {
    for (const src of ['a{0,}', '^{0,}', '.{0,12}', '\\pL{0,}', '(ab){0,3}', '\\.{0}']) {
      expect(compileRegex(src).literalPrefilter, src).toBeUndefined();
    }
    expect(compileRegex('.{2,5}needle').literalPrefilter).toBe('needle');
  });

  it('never offers a literal that a matching input lacks', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      'ab',
      'ba',
      '.',
      '*',
      '+',
      '?',
      '|',
      '(',
      ')',
      '\\d',
      '[ab]',
      '\\.',
      '{2}',
      '(?i)',
      '\\pL',
      '^',
      '$',
      '(?)',
      '(?s)',
      '(?:',
      '{0}',
      '{0,}',
    );
    const regex = fc.array(piece, { maxLength: 10 }).map((p) => p.join(''));
    const input = fc.stringMatching(/^[abAB1.]{0,12}$/);
    fc.assert(
      fc.property(regex, fc.array(input, { minLength: 5, maxLength: 20 }), (src, inputs) => {
        let re;
        try {
          re = compileRegex(src);
        } catch {
          return;
        }
        const lit = re.literalPrefilter;
        if (lit === undefined) return;
        for (const s of inputs) {
          if (re.test(s)) expect(s.includes(lit), `${src} ${lit} ${s}`).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds group names without being fooled by escapes and classes', () => {
    expect(captureGroupNames('\\(a\\)[(](?:x)(?P<n>y)(?<m>z)')).toEqual(['', 'n', 'm']);
  });
});
