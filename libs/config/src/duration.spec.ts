import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration';
import { formatSize, parseSize } from './size';

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

  it('formats like Prometheus model.Duration', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(604_800_000)).toBe('1w');
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(721 * 3_600_000)).toBe('4w2d1h');
    expect(formatDuration(300)).toBe('300ms');
    expect(parseDuration(formatDuration(721 * 3_600_000))).toBe(721 * 3_600_000);
  });
});

describe('parseSize', () => {
  it.each([
    ['256KB', 262_144],
    ['256kb', 262_144],
    ['256KiB', 262_144],
    ['4MB', 4_194_304],
    ['1GiB', 1_073_741_824],
    ['1024', 1024],
    ['10B', 10],
    ['1.5KB', 1536],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['', 'abc', 'KB', '-1KB', '1XB'])('rejects %j', (text) => {
    expect(parseSize(text)).toBeUndefined();
  });

  it('formats with the largest exact unit', () => {
    expect(formatSize(262_144)).toBe('256KB');
    expect(formatSize(100 * 1024 * 1024)).toBe('100MB');
    expect(formatSize(1000)).toBe('1000B');
    expect(formatSize(0)).toBe('0B');
  });
});
