import { DEFAULT_LIMITS, Overrides, type TenantLimits } from '@logsvc/config';
import { MemorySource } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import type { SubQuery } from '../downstream';
import { memoryDownstream } from '../testing/memory-downstream';
import { type FrontendQueryRequest, QueryFrontend } from './query-frontend';

const S = 1_000_000_000n;
const M = 60n * S;
const H = 60n * M;
const NOW = 1_700_002_800n * S + 17n * M;

const src = new MemorySource(
  [0, 1, 2, 3].map((pod) => ({
    labels: [
      { name: 'app', value: pod % 2 === 0 ? 'api' : 'web' },
      { name: 'pod', value: `pod-${pod}` },
      { name: 'n', value: String(pod * 10 + 1) },
    ],
    entries: Array.from({ length: 200 }, (_, i) => ({
      timestampNs: NOW - 4n * H + BigInt(i) * 71n * S + BigInt(pod) * S,
      line: `level=info i=${i} ${'x'.repeat((i * 7 + pod) % 13)}`,
    })),
  })),
);

function frontend(intervalMs: number, sent: SubQuery[]) {
  return new QueryFrontend({
    downstream: memoryDownstream(src, sent),
    overrides: new Overrides(
      {
        ...(DEFAULT_LIMITS as TenantLimits),
        split_instant_metric_queries_by_interval: intervalMs,
        tsdb_max_query_parallelism: 2,
      },
      { file: '', periodMs: 60_000 },
    ),
    now: () => NOW,
    sharding: true,
    cache: null,
  });
}

const instant = (query: string): FrontendQueryRequest => ({
  kind: 'instant',
  query,
  startNs: NOW,
  endNs: NOW,
  stepNs: 0n,
  intervalNs: 0n,
  limit: 100,
  direction: 'backward',
  tenants: ['team-a'],
  categorizeLabels: false,
  clientSignal: new AbortController().signal,
});

const sortSamples = (r: unknown) =>
  r !== null && typeof r === 'object' && 'samples' in r
    ? [...(r.samples as { labels: unknown }[])].sort((a, b) =>
        JSON.stringify(a.labels).localeCompare(JSON.stringify(b.labels)),
      )
    : r;

describe('limits_config.split_instant_metric_queries_by_interval', () => {
  it.each([
    ['count_over_time({app=~".+"}[3h])', 3],
    ['sum by (app) (bytes_over_time({app=~".+"}[150m] offset 10m))', 3],
    ['sum(count_over_time({app="api"} |= "i=1" [3h]))', 3],
    ['max by (app) (max_over_time({app=~".+"} | unwrap n [3h]))', 3],
    ['min_over_time({app=~".+"} | unwrap n [3h])', 3],
    ['sum by (app) (count_over_time({app=~".+"}[3h])) / 2', 3],
    ['sum by (app) (rate({app=~".+"}[3h]))', 3],
    ['rate({app="web"} | unwrap n [150m])', 3],
    ['sum(bytes_rate({app=~".+"}[3h]))', 3],
    ['sum(count_over_time({app=~".+"} | logfmt [3h]))', 3],
    ['sum by (level, app) (count_over_time({app=~".+"} | logfmt [3h]))', 3],
    ['max_over_time({app=~".+"} | logfmt | unwrap i [3h]) by (level)', 3],
    ['count_over_time({app=~".+"} | logfmt level [3h])', 3],
    ['count_over_time({app=~".+"} | regexp `i=(?P<i>\\d)` [3h])', 3],
    ['max_over_time({app=~".+"} | unwrap n [3h]) by (app)', 3],
    ['sum by (level) (rate({app=~".+"} | logfmt | unwrap i [3h]))', 3],
  ])('cuts %s into %i pieces of the range and answers as unsplit', async (query, pieces) => {
    const sent: SubQuery[] = [];
    const split = await frontend(3_600_000, sent).query(instant(query));
    const whole = await frontend(0, []).query(instant(query));
    expect(split.stats.summary.splits).toBe(pieces);
    expect(new Set(sent.map((s) => s.query)).size).toBe(pieces);
    expect(sortSamples(split.result)).toEqual(sortSamples(whole.result));
    expect(split.result.type === 'vector' && split.result.samples.length).toBeGreaterThan(0);
  });

  it('leaves ranges within the interval, unbounded label extraction and other ops whole', async () => {
    for (const query of [
      'count_over_time({app=~".+"}[1h])',
      'count_over_time({app="web"} | logfmt [3h])',
      'rate({app=~".+"} | json | __error__="" [3h])',
      'avg_over_time({app=~".+"} | unwrap n [3h])',
      'sum(max_over_time({app=~".+"} | unwrap n [3h]))',
    ]) {
      const sent: SubQuery[] = [];
      const split = await frontend(3_600_000, sent).query(instant(query));
      expect(split.stats.summary.splits, query).toBe(0);
      const whole = await frontend(0, []).query(instant(query));
      expect(sortSamples(split.result)).toEqual(sortSamples(whole.result));
    }
  });
});
