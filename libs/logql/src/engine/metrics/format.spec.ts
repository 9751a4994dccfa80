import { describe, expect, it } from 'vitest';
import { formatSampleValue, formatTimestampSeconds } from './format';

describe('formatSampleValue (Go FormatFloat f, -1)', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [-2.5, '-2.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    [-1.25e-10, '-0.000000000125'],
    [123456789012345680000, '123456789012345680000'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('%s → %s', (v, want) => {
    expect(formatSampleValue(v)).toBe(want);
  });

  it('formats millisecond timestamps as seconds', () => {
    expect(formatTimestampSeconds(1588889221500)).toBe('1588889221.5');
    expect(formatTimestampSeconds(60000)).toBe('60');
  });
});
