import { DEFAULT_LIMITS, Overrides, type TenantLimits } from '@logsvc/config';
import { MemorySource } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import type { SubQuery } from '../downstream';
import { memoryDownstream } from '../testing/memory-downstream';
import { type FrontendQueryRequest, QueryFrontend } from './query-frontend';

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;

const src = new MemorySource([
  {
    labels: [{ name: 'app', value: 'api' }],
    entries: [{ timestampNs: T0 + S, line: 'hello' }],
  },
]);

function frontend(maxQueryBytesRead: number, sent: SubQuery[], indexed = 3 * 1024 * 1024) {
  return new QueryFrontend({
    downstream: memoryDownstream(src, sent),
    overrides: new Overrides(
      { ...(DEFAULT_LIMITS as TenantLimits), max_query_bytes_read: maxQueryBytesRead },
      { file: '', periodMs: 60_000 },
    ),
    now: () => T0 + 100_000n * S,
    sharding: true,
    cache: null,
    indexBytes: async () => indexed,
  });
}

const request = (query: string): FrontendQueryRequest => ({
  kind: 'range',
  query,
  startNs: T0,
  endNs: T0 + 600n * S,
  stepNs: 15n * S,
  intervalNs: 0n,
  limit: 100,
  direction: 'backward',
  tenants: ['team-a'],
  categorizeLabels: false,
  clientSignal: new AbortController().signal,
});

describe('limits_config.max_query_bytes_read', () => {
  it('refuses a query the index says reads more, with Loki’s 400 and text, before running it', async () => {
    const sent: SubQuery[] = [];
    const err = await frontend(1024 * 1024, sent)
      .query(request('{app="api"}'))
      .then(
        () => undefined,
        (e: unknown) => e as Error & { httpStatus?: number },
      );
    expect(err?.message).toBe(
      'the query would read too many bytes (query: 3.0 MiB, limit: 1.0 MiB); consider adding ' +
        'more specific stream selectors or reduce the time range of the query',
    );
    expect(err?.httpStatus).toBe(400);
    expect(sent).toEqual([]);
  });

  it('runs queries within the limit, and every query when it is 0', async () => {
    for (const limit of [4 * 1024 * 1024, 0]) {
      const answer = await frontend(limit, []).query(request('count_over_time({app="api"}[1m])'));
      expect(answer.resultType).toBe('matrix');
    }
  });
});
