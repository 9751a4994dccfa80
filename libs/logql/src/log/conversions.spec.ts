import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { strconvParseFloat } from '@logsvc/gocompat';
import { parseGoDurationNs, parseGoFloat, parseHumanBytes } from './conversions';

describe('Go conversions', () => {
  it.each([
    ['1', 1],
    ['-2.5', -2.5],
    ['1e3', 1000],
    ['.5', 0.5],
    ['+Inf', Infinity],
    ['-inf', -Infinity],
    ['0x1p-2', 0.25],
  ])('ParseFloat(%j) = %d', (s, want) => {
    expect(parseGoFloat(s)).toBe(want);
  });

  it.each([
    ['abc', 'strconv.ParseFloat: parsing "abc": invalid syntax'],
    ['', 'strconv.ParseFloat: parsing "": invalid syntax'],
    ['1,5', 'strconv.ParseFloat: parsing "1,5": invalid syntax'],
    ['1e400', 'strconv.ParseFloat: parsing "1e400": value out of range'],
  ])('ParseFloat(%j) fails', (s, message) => {
    expect(() => parseGoFloat(s)).toThrow(message);
  });

  it('reads plain decimals as the general parser does (its fast path)', () => {
    const general = (s: string): number | string => {
      try {
        return strconvParseFloat(s);
      } catch (err) {
        return (err as Error).message;
      }
    };
    const fast = (s: string): number | string => {
      try {
        return parseGoFloat(s);
      } catch (err) {
        return (err as Error).message;
      }
    };
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'-0123456789.'.split('')), maxLength: 18 }),
      fc.string({ unit: fc.constantFrom(...'-+0123456789.eE_x '.split('')), maxLength: 8 }),
      fc.double().map(String),
    );
    fc.assert(
      fc.property(text, (s) => {
        expect(fast(s)).toEqual(general(s));
      }),
      { numRuns: 5000 },
    );
    expect(Object.is(parseGoFloat('-0'), -0)).toBe(true);
    expect(parseGoFloat('007.50')).toBe(7.5);
    expect(parseGoFloat('123456789012345')).toBe(123456789012345);
  });

  it.each([
    ['0', 0],
    ['1h30m', 5400e9],
    ['0.10ms', 100_000],
    ['1.5s', 1.5e9],
    ['-2m', -120e9],
    ['3µs', 3000],
    ['2h45m10s', 9910e9],
  ])('ParseDuration(%j) = %d ns', (s, want) => {
    expect(parseGoDurationNs(s)).toBeCloseTo(want, 3);
  });

  it.each([
    ['1', 'time: missing unit in duration "1"'],
    ['1x', 'time: unknown unit "x" in duration "1x"'],
    ['', 'time: invalid duration ""'],
    ['abc', 'time: invalid duration "abc"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
  ])('ParseDuration(%j) fails', (s, message) => {
    expect(() => parseGoDurationNs(s)).toThrow(message);
  });

  it.each([
    ['20MB', 20e6],
    ['2.5KiB', 2560],
    ['1,000', 1000],
    ['42', 42],
    ['5 GB', 5e9],
    ['1mib', 1048576],
    ['10b', 10],
  ])('ParseBytes(%j) = %d', (s, want) => {
    expect(parseHumanBytes(s)).toBe(want);
  });

  it.each([
    ['abc', 'strconv.ParseFloat: parsing "": invalid syntax'],
    ['5XB', 'unhandled size name: xb'],
  ])('ParseBytes(%j) fails', (s, message) => {
    expect(() => parseHumanBytes(s)).toThrow(message);
  });
});
