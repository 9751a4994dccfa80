import { describe, expect, it } from 'vitest';
import {
  checkEntriesLimit,
  checkQueryLength,
  clampLookback,
  metadataRange,
  queryLimits,
} from './query-limits';

const HOUR_MS = 3_600_000;
const NS_PER_MS = 1_000_000n;
const base = {
  max_entries_limit_per_query: 5000,
  max_query_length: 721 * HOUR_MS,
  max_query_series: 500,
  max_query_lookback: 0,
  query_timeout: 60_000,
  max_query_memory_bytes: 256 * 1024 * 1024,
};

describe('query limits', () => {
  it('takes the strictest non-zero limit over tenants', () => {
    const l = queryLimits([base, { ...base, max_query_series: 10, max_query_length: 0 }] as never);
    expect(l.max_query_series).toBe(10);
    expect(l.max_query_length).toBe(721 * HOUR_MS);
  });

  it('names max_entries_limit_per_query', () => {
    expect(() => checkEntriesLimit(base, 5001)).toThrow(
      'max entries limit per query exceeded, limit > max_entries_limit_per_query (5001 > 5000)',
    );
    expect(() => checkEntriesLimit(base, 5000)).not.toThrow();
  });

  it('refuses ranges longer than max_query_length with Loki’s durations', () => {
    const end = 800n * 3600n * 1000n * NS_PER_MS;
    expect(() => checkQueryLength(base, 0n, end)).toThrow(
      'the query time range exceeds the limit (query length: 800h0m0s, limit: 30d1h)',
    );
  });

  it('moves the start forward by max_query_lookback, or empties an older range', () => {
    const l = { ...base, max_query_lookback: HOUR_MS };
    const now = 10n * 3600n * 1000n * NS_PER_MS;
    const hour = 3600n * 1000n * NS_PER_MS;
    expect(clampLookback(l, 0n, now, now)).toEqual({ startNs: now - hour, endNs: now });
    expect(clampLookback(l, 0n, hour, now)).toBeNull();
  });

  it('refuses a metadata range older than the lookback, or reversed, with Loki’s text', () => {
    const l = { ...base, max_query_lookback: HOUR_MS };
    const hour = 3600n * 1000n * NS_PER_MS;
    const now = 10n * hour;
    expect(metadataRange(l, 0n, now, now)).toEqual({ startNs: now - hour, endNs: now });
    expect(() => metadataRange(l, 0n, hour, now)).toThrow(
      'this data is no longer available, it is past now - max_query_lookback (1h)',
    );
    expect(() => metadataRange(base, now, now - 1n, now)).toThrow('max_query_lookback (0s)');
  });
});
