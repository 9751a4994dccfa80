import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['300ms', 300],
    ['1d', 86_400_000],
    ['1w', 604_800_000],
    ['721h', 721 * 3_600_000],
    ['1.5h', 5_400_000],
    ['250us', 0.25],
    ['2m30s', 150_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'abc', '5', '5x', '-1s', 'h'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
