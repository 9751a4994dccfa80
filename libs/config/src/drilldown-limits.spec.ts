import { describe, expect, it } from 'vitest';
import { drilldownLimits } from './drilldown-limits';
import { defaultConfig } from './parse';

const options = {
  patternIngesterEnabled: false,
  version: '1.2.3',
  otlpIndexLabelAttributes: ['a'],
};

describe('drilldownLimits', () => {
  it('publishes Loki allow-listed limits with durations and sizes as Loki prints them', () => {
    const out = drilldownLimits(defaultConfig().limits_config, options);
    expect(Object.keys(out.limits)).toEqual([...Object.keys(out.limits)].sort());
    expect(out.limits).toMatchObject({
      discover_log_levels: true,
      max_entries_limit_per_query: 5000,
      max_query_bytes_read: '0B',
      max_query_length: '30d1h',
      max_query_lookback: '0s',
      max_query_series: 500,
      query_timeout: '1m',
      retention_period: '0s',
      volume_enabled: true,
      volume_max_series: 1000,
    });
    expect(out.limits).not.toHaveProperty('retention_stream');
    expect(out.limits).not.toHaveProperty('ingestion_rate_mb');
    expect(out.pattern_ingester_enabled).toBe(false);
    expect(out.version).toBe('1.2.3');
  });

  it('shows a tenant own limits and per-stream retentions', () => {
    const limits = {
      ...defaultConfig().limits_config,
      max_query_length: 3_600_000,
      retention_stream: [{ selector: '{app="a"}', priority: 1, period: 24 * 3_600_000 }],
    };
    const out = drilldownLimits(limits, options);
    expect(out.limits.max_query_length).toBe('1h');
    expect(out.limits.retention_stream).toEqual([
      { period: '1d', priority: 1, selector: '{app="a"}' },
    ]);
  });
});
