import { describe, expect, it } from 'vitest';
import { formatGoTime, formatRfc3339, formatRfc3339Nano, parseRfc3339Nano } from './go-time';

describe('Go time forms', () => {
  it('parses RFC 3339 with nanoseconds and offsets', () => {
    expect(parseRfc3339Nano('2023-11-14T22:13:20Z')).toBe(1_700_000_000_000_000_000n);
    expect(parseRfc3339Nano('2023-11-14T22:13:20.000000123Z')).toBe(1_700_000_000_000_000_123n);
    expect(parseRfc3339Nano('2023-11-15T00:13:20.5+02:00')).toBe(1_700_000_000_500_000_000n);
  });

  it('refuses impossible dates, bad offsets, and a space unless allowed', () => {
    expect(parseRfc3339Nano('2023-02-30T00:00:00Z')).toBeUndefined();
    expect(parseRfc3339Nano('2023-01-01T00:00:00+24:00')).toBeUndefined();
    expect(parseRfc3339Nano('2023-11-14 22:13:20Z')).toBeUndefined();
    expect(parseRfc3339Nano('2023-11-14 22:13:20Z', { allowSpace: true })).toBe(
      1_700_000_000_000_000_000n,
    );
  });

  it('prints as Go does', () => {
    const ns = 1_700_000_000_120_000_000n;
    expect(formatRfc3339(ns)).toBe('2023-11-14T22:13:20Z');
    expect(formatRfc3339Nano(ns)).toBe('2023-11-14T22:13:20.12Z');
    expect(formatRfc3339Nano(1_700_000_000_000_000_000n)).toBe('2023-11-14T22:13:20Z');
    expect(formatGoTime(ns)).toBe('2023-11-14 22:13:20.12 +0000 UTC');
    expect(formatRfc3339(-1n)).toBe('1969-12-31T23:59:59Z');
  });
});
