import { DEFAULT_LIMITS, Overrides, type TenantLimits } from '@logsvc/config';
import { MemorySource } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import type { SubQuery } from '../downstream';
import { memoryDownstream } from '../testing/memory-downstream';
import { type FrontendQueryRequest, type IndexBytes, QueryFrontend } from './query-frontend';

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;
const MiB = 1024 * 1024;

const src = new MemorySource([
  {
    labels: [{ name: 'app', value: 'api' }],
    entries: [{ timestampNs: T0 + S, line: 'hello' }],
  },
]);

/** The index holds 1 MiB per minute of the range asked for. */
const perMinute: IndexBytes = async (_t, _s, fromNs, throughNs) =>
  Math.round((Number(throughNs - fromNs) / 60e9) * MiB);

function frontend(
  limits: Partial<TenantLimits>,
  sent: SubQuery[],
  options: { sharding?: boolean; indexBytes?: IndexBytes } = {},
) {
  return new QueryFrontend({
    downstream: memoryDownstream(src, sent),
    overrides: new Overrides(
      { ...(DEFAULT_LIMITS as TenantLimits), ...limits },
      { file: '', periodMs: 60_000 },
    ),
    now: () => T0 + 100_000n * S,
    sharding: options.sharding ?? true,
    cache: null,
    indexBytes: options.indexBytes ?? (async () => 3 * MiB),
  });
}

const request = (query: string, seconds = 600n): FrontendQueryRequest => ({
  kind: 'range',
  query,
  startNs: T0,
  endNs: T0 + seconds * S,
  stepNs: 60n * S,
  intervalNs: 0n,
  limit: 100,
  direction: 'backward',
  tenants: ['team-a'],
  categorizeLabels: false,
  clientSignal: new AbortController().signal,
});

async function failure(answer: Promise<unknown>) {
  return answer.then(
    () => undefined,
    (e: unknown) => e as Error & { httpStatus?: number },
  );
}

describe('limits_config.max_querier_bytes_read', () => {
  it('refuses an un-shardable query one querier would read too much of, with Loki’s 400 and text', async () => {
    const sent: SubQuery[] = [];
    const err = await failure(
      frontend({ max_querier_bytes_read: MiB }, sent).query(
        request('sum by (app) (count_over_time({app="api"}[1m]))'),
      ),
    );
    expect(err?.message).toBe(
      'un-shardable query too large to execute on a single querier: (query: 3.0 MiB, limit: 1.0 MiB); ' +
        'consider adding more specific stream selectors or reduce the time range of the query',
    );
    expect(err?.httpStatus).toBe(400);
    expect(sent).toEqual([]);
  });

  it('counts the bytes per shard of a sharded query', async () => {
    // 3 MiB at 1 MiB per shard: 4 shards of 768 KiB.
    const sharded = { tsdb_max_bytes_per_shard: MiB };
    const query = request('sum by (app) (count_over_time({app="api"}[1m]))');
    const ok = await frontend({ ...sharded, max_querier_bytes_read: MiB }, []).query(query);
    expect(ok.resultType).toBe('matrix');
    const err = await failure(
      frontend({ ...sharded, max_querier_bytes_read: 512 * 1024 }, []).query(query),
    );
    expect(err?.message).toBe(
      'shard query is too large to execute on a single querier: (query: 768 KiB, limit: 512 KiB); ' +
        'consider adding more specific stream selectors or reduce the time range of the query',
    );
    expect(err?.httpStatus).toBe(400);
  });

  it('uses Loki’s text for a querier without sharding, and skips log queries without filters', async () => {
    const unsharded = frontend({ max_querier_bytes_read: MiB }, [], { sharding: false });
    for (const q of ['{app="api"}', '{app="api"} |= ""', '{app="api"} | logfmt'])
      expect((await unsharded.query(request(q))).resultType).toBe('streams');
    const err = await failure(unsharded.query(request('{app="api"} |= "hello"')));
    expect(err?.message).toBe(
      'query too large to execute on a single querier: (query: 3.0 MiB, limit: 1.0 MiB); ' +
        'consider adding more specific stream selectors, reduce the time range of the query, ' +
        'or adjust parallelization settings',
    );
  });

  it('checks each split: a query whose splits each read within the limit runs', async () => {
    // 10 minutes at 1 MiB a minute; split by 5 minutes, each split reads 5 MiB.
    const limits = { max_querier_bytes_read: 6 * MiB, split_queries_by_interval: 300_000 };
    const ok = await frontend(limits, [], { indexBytes: perMinute }).query(request('{app="api"}'));
    expect(ok.resultType).toBe('streams');
    const err = await failure(
      frontend({ ...limits, split_queries_by_interval: 0 }, [], { indexBytes: perMinute }).query(
        request('{app="api"}'),
      ),
    );
    expect(err?.message).toContain('(query: 10 MiB, limit: 6.0 MiB)');
  });

  it('runs every query at 0', async () => {
    const answer = await frontend({ max_querier_bytes_read: 0 }, []).query(request('{app="api"}'));
    expect(answer.resultType).toBe('streams');
  });
});
