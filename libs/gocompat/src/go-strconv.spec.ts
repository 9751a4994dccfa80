import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { strconvQuote } from './go-quote';
import {
  goParseFloat,
  goFormatFloat,
  strconvParseBool,
  strconvParseFloat,
  strconvParseIntBase0,
} from './go-strconv';

describe('strconvParseFloat', () => {
  it.each([
    ['1', 1],
    ['-2.5', -2.5],
    ['5.', 5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['1_000.5', 1000.5],
    ['0x1p-2', 0.25],
    ['+Inf', Infinity],
    ['-infinity', -Infinity],
  ])('ParseFloat(%j) = %d', (text, want) => {
    expect(strconvParseFloat(text)).toBe(want);
  });

  it.each([
    ['abc', 'strconv.ParseFloat: parsing "abc": invalid syntax'],
    ['', 'strconv.ParseFloat: parsing "": invalid syntax'],
    ['1__0', 'strconv.ParseFloat: parsing "1__0": invalid syntax'],
    ['_1', 'strconv.ParseFloat: parsing "_1": invalid syntax'],
    ['0x1', 'strconv.ParseFloat: parsing "0x1": invalid syntax'],
    ['1e400', 'strconv.ParseFloat: parsing "1e400": value out of range'],
  ])('ParseFloat(%j) fails', (text, message) => {
    expect(() => strconvParseFloat(text)).toThrow(message);
  });

  it('reads NaN in any case', () => {
    expect(strconvParseFloat('nan')).toBeNaN();
  });
});

describe('strconvParseIntBase0', () => {
  it('reads base prefixes and underscores as ParseInt(s, 0, 64) does', () => {
    expect(strconvParseIntBase0('0x1f', false)).toBe(31n);
    expect(strconvParseIntBase0('017', false)).toBe(15n);
    expect(strconvParseIntBase0('1_000', false)).toBe(1000n);
    expect(strconvParseIntBase0('-1', true)).toBeUndefined();
    expect(strconvParseIntBase0('9223372036854775808', false)).toBeUndefined();
  });
});

describe('strconvParseBool', () => {
  it("accepts Go's spellings only", () => {
    expect(
      ['1', 't', 'TRUE', 'True', '0', 'f', 'False', 'yes', 'tRUE'].map(strconvParseBool),
    ).toEqual([true, true, true, true, false, false, false, undefined, undefined]);
  });
});

describe('goFormatFloat', () => {
  it('prints the shortest decimal without exponent', () => {
    expect([1.5e-7, 1e21, -0, NaN, -Infinity].map(goFormatFloat)).toEqual([
      '0.00000015',
      '1000000000000000000000',
      '-0',
      'NaN',
      '-Inf',
    ]);
  });
});

describe('strconvQuote', () => {
  it('escapes quotes, backslashes and control characters as Go does', () => {
    expect(strconvQuote('a\nb\x01"\\')).toBe('"a\\nb\\x01\\"\\\\"');
    expect(strconvQuote('é\u0085')).toBe('"é\\u0085"');
    expect(strconvQuote('\ud800x')).toBe('"\\ufffdx"');
    expect(strconvQuote('😀')).toBe('"😀"');
  });
});

describe('goParseFloat', () => {
  it('accepts exactly what strconvParseFloat accepts (its shortcut refuses only the rest)', () => {
    const piece = fc.constantFrom(
      ...['0', '1', '9', '.', '_', '-', '+', 'e', 'E', 'x', 'X', 'p', 'P', 'a', 'f', 'g', ' '],
      ...['inf', 'Inf', 'inity', 'nan', 'NaN', '0x', '1e', '١'],
    );
    const text = fc.array(piece, { maxLength: 7 }).map((ps) => ps.join(''));
    fc.assert(
      fc.property(text, (t) => {
        let want: number | undefined;
        try {
          want = strconvParseFloat(t);
        } catch {
          want = undefined;
        }
        expect(goParseFloat(t)).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });
});
