import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  goParseFloat,
  goParseInt,
  humanizeParseBytes,
  strconvParseBool,
  timeParseDuration,
} from '@logsvc/gocompat';
import { detectFieldType } from './detected-field-type';

describe('detectFieldType', () => {
  it('tries int, float, boolean, duration, bytes in that order', () => {
    expect(detectFieldType('200')).toBe('int');
    expect(detectFieldType('-7')).toBe('int');
    expect(detectFieldType('0.25')).toBe('float');
    expect(detectFieldType('1e3')).toBe('float');
    // Too large for int64, so Go's ParseInt refuses it and ParseFloat takes it.
    expect(detectFieldType('99999999999999999999')).toBe('float');
    expect(detectFieldType('NaN')).toBe('float');
    expect(detectFieldType('true')).toBe('boolean');
    expect(detectFieldType('T')).toBe('boolean');
    expect(detectFieldType('15ms')).toBe('duration');
    expect(detectFieldType('1h30m')).toBe('duration');
    expect(detectFieldType('1.5KB')).toBe('bytes');
    expect(detectFieldType('10 MiB')).toBe('bytes');
  });

  it('calls everything else a string', () => {
    expect(detectFieldType('alice')).toBe('string');
    expect(detectFieldType('')).toBe('string');
    expect(detectFieldType('2024-01-01T00:00:00Z')).toBe('string');
    expect(detectFieldType('0x10')).toBe('string');
    expect(detectFieldType('yes')).toBe('string');
  });
});

/** The parsers alone, each tried in turn: what detectFieldType's shortcuts must agree with. */
function byParsersOnly(value: string): string {
  const accepts = (parse: (text: string) => unknown): boolean => {
    try {
      parse(value);
      return true;
    } catch {
      return false;
    }
  };
  if (accepts(goParseInt)) return 'int';
  if (goParseFloat(value) !== undefined) return 'float';
  if (strconvParseBool(value) !== undefined) return 'boolean';
  if (accepts(timeParseDuration)) return 'duration';
  if (accepts(humanizeParseBytes)) return 'bytes';
  return 'string';
}

describe('detectFieldType shortcuts', () => {
  it('type values as the parsers alone do', () => {
    const piece = fc.constantFrom(
      ...['0', '1', '9', '.', ',', '-', '+', ' ', 'e', 'E', '_', 'x', 'p', 'n', 's', 'u', 'µ'],
      ...['μ', 'm', 'h', 'k', 'K', 'i', 'B', 'b', 'g', 'G', 'T', 'inf', 'NaN', 'true', '١', '\t'],
    );
    const value = fc.array(piece, { maxLength: 8 }).map((ps) => ps.join(''));
    fc.assert(
      fc.property(value, (v) => {
        expect(detectFieldType(v)).toBe(byParsersOnly(v));
      }),
      { numRuns: 5000 },
    );
  });
});
