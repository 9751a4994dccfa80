/**
 * A sub-query a frontend sends a querier process, and the querier's JSON answer, read back by
 * the frontend: what the frontend gets must equal what the querier computed.
 */
import type { QueryResult } from '@logsvc/api';
import { newQueryStats } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import { parseInstantQuery, parseRangeQuery, queryResponseJson } from '@logsvc/query-codec';
import type { SubQuery } from '../downstream';
import { readSubQueryAnswer, subQueryJob } from './sub-query-job';

const results: QueryResult[] = [
  {
    type: 'streams',
    streams: [
      {
        labels: [{ name: 'app', value: 'a"pi' }],
        entries: [
          [1_700_000_000_123_456_789n, 'line <1> "quoted" \u2028 é'],
          [1_700_000_001_000_000_000n, ''],
        ],
      },
    ],
  },
  {
    type: 'matrix',
    series: [
      {
        labels: [{ name: 'level', value: 'error' }],
        points: [
          [1_700_000_010_000, 0.6000000000000001],
          [1_700_000_025_500, NaN],
          [1_700_000_040_000, Infinity],
          [1_700_000_055_000, -1e-7],
          [1_700_000_070_000, 123456789.125],
        ],
      },
    ],
  },
  {
    type: 'vector',
    samples: [{ labels: [], timestampMs: 1_700_000_000_001, value: -Infinity }],
  },
  { type: 'scalar', timestampMs: 1_700_000_000_000, value: 2.5 },
];

describe('sub-queries between a frontend and querier processes', () => {
  it.each(results.map((r) => ({ r, name: r.type })))('reads back a $name answer', ({ r }) => {
    const stats = newQueryStats();
    stats.querier.store.totalChunksRef = 7;
    stats.querier.store.chunk.decompressedLines = 1234;
    stats.ingester.totalReached = 3;
    stats.ingester.store.chunk.headChunkBytes = 99;
    const body = Buffer.from(queryResponseJson(r, stats));
    const back = readSubQueryAnswer({ status: 200, headers: {}, body });
    expect(back.result).toEqual(r);
    expect(back.stats.querier.store.totalChunksRef).toBe(7);
    expect(back.stats.querier.store.chunk.decompressedLines).toBe(1234);
    expect(back.stats.ingester.totalReached).toBe(3);
    expect(back.stats.ingester.store.chunk.headChunkBytes).toBe(99);
  });

  it('reads back entries with label categories', () => {
    const r: QueryResult = {
      type: 'streams',
      streams: [
        {
          labels: [{ name: 'app', value: 'api' }],
          entries: [
            [
              5n,
              'x',
              {
                structuredMetadata: [{ name: 'trace_id', value: 't1' }],
                parsed: [{ name: 'level', value: 'warn' }],
              },
            ],
          ],
        },
      ],
    };
    const body = Buffer.from(queryResponseJson(r, newQueryStats(), true));
    expect(readSubQueryAnswer({ status: 200, headers: {}, body }).result).toEqual(r);
  });

  it('turns an error answer into the error of that status', () => {
    const answer = { status: 400, headers: {}, body: Buffer.from('parse error at line 1\n') };
    expect(() => readSubQueryAnswer(answer)).toThrow(
      expect.objectContaining({ kind: 'bad_request', message: 'parse error at line 1' }),
    );
  });

  it('sends what the querier parses back into the same sub-query', () => {
    const range: SubQuery = {
      kind: 'range',
      query: 'sum by (a) (rate({app="x"} |= "é&" [1m]))',
      startNs: 1_700_000_000_000_000_000n,
      endNs: 1_700_000_600_000_000_000n,
      stepNs: 15_250_000_000n,
      intervalNs: 0n,
      limit: 30,
      direction: 'forward',
      tenants: ['a', 'b'],
      shard: { index: 3, of: 8 },
    };
    const job = subQueryJob(range);
    expect(job.headers['x-scope-orgid']).toBe('a|b');
    const url = new URL(job.url, 'http://querier');
    expect(url.pathname).toBe('/loki/api/v1/query_range');
    const read = (name: string) => url.searchParams.get(name) ?? undefined;
    expect(parseRangeQuery(read, 0n)).toEqual({
      query: range.query,
      startNs: range.startNs,
      endNs: range.endNs,
      limit: 30,
      direction: 'forward',
      stepNs: range.stepNs,
      intervalNs: 0n,
      shard: range.shard,
    });
    const instant = subQueryJob({ ...range, kind: 'instant', shard: undefined });
    const iurl = new URL(instant.url, 'http://querier');
    expect(iurl.pathname).toBe('/loki/api/v1/query');
    const iread = (name: string) => iurl.searchParams.get(name) ?? undefined;
    expect(parseInstantQuery(iread, 0n)).toEqual({
      query: range.query,
      timeNs: range.endNs,
      limit: 30,
      direction: 'forward',
    });
  });
});
