import { describe, expect, it } from 'vitest';
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
