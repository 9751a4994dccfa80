import { DEFAULT_LIMITS, Overrides, type TenantLimits } from '@logsvc/config';
import { MemorySource } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import type { SubQuery } from '../downstream';
import { memoryDownstream } from '../testing/memory-downstream';
import { type FrontendQueryRequest, QueryFrontend } from './query-frontend';

const S = 1_000_000_000n;
const M = 60n * S;
const H = 60n * M;
const B = 1_700_002_800n * S; // a whole hour

const src = new MemorySource([
  {
    labels: [{ name: 'app', value: 'api' }],
    entries: Array.from({ length: 180 }, (_, i) => ({
      timestampNs: B + BigInt(i) * M + 7n * S,
      line: `line ${i}`,
    })),
  },
]);

function frontend(ingesterSplitMs: number, sent: SubQuery[], queryStoreOnly = false) {
  return new QueryFrontend({
    downstream: memoryDownstream(src, sent),
    overrides: new Overrides(
      {
        ...(DEFAULT_LIMITS as TenantLimits),
        split_queries_by_interval: 3_600_000,
        split_ingester_queries_by_interval: ingesterSplitMs,
      },
      { file: '', periodMs: 60_000 },
    ),
    now: () => B + 3n * H,
    sharding: false,
    cache: null,
    // The ingesters hold the last 30 minutes.
    ingesterWindow: { queryIngestersWithinMs: 30 * 60_000, queryStoreOnly },
  });
}

const request = (query: string): FrontendQueryRequest => ({
  kind: 'range',
  query,
  startNs: B,
  endNs: B + 3n * H,
  stepNs: M,
  intervalNs: 0n,
  limit: 1000,
  direction: 'forward',
  tenants: ['team-a'],
  categorizeLabels: false,
  clientSignal: new AbortController().signal,
});

const ranges = (sent: SubQuery[]) =>
  sent.map((s) => [(s.startNs - B) / M, (s.endNs - B) / M]).sort((a, b) => Number(a[0]! - b[0]!));

describe('limits_config.split_ingester_queries_by_interval', () => {
  it('splits what the ingesters hold by its own interval, the rest by split_queries_by_interval', async () => {
    const query = request('count_over_time({app="api"}[1m])');
    const sent: SubQuery[] = [];
    const split = await frontend(10 * 60_000, sent).query(query);
    expect(ranges(sent)).toEqual([
      [0n, 59n],
      [60n, 119n],
      [120n, 149n],
      [150n, 159n],
      [160n, 169n],
      [170n, 180n],
    ]);
    expect(split.stats.summary.splits).toBe(6);
    // The same answer as without it (3 splits by the hour).
    const plain: SubQuery[] = [];
    const whole = await frontend(0, plain).query(query);
    expect(plain).toHaveLength(3);
    expect(split.result).toEqual(whole.result);
  });

  it('cuts log queries the same way, and nothing with querier.query_store_only', async () => {
    const sent: SubQuery[] = [];
    const answer = await frontend(10 * 60_000, sent).query(request('{app="api"}'));
    expect(ranges(sent)).toEqual([
      [0n, 60n],
      [60n, 120n],
      [120n, 150n],
      [150n, 160n],
      [160n, 170n],
      [170n, 180n],
    ]);
    expect(answer.result.type === 'streams' && answer.result.streams[0]!.entries).toHaveLength(180);
    const storeOnly: SubQuery[] = [];
    await frontend(10 * 60_000, storeOnly, true).query(request('{app="api"}'));
    expect(storeOnly).toHaveLength(3);
  });
});
