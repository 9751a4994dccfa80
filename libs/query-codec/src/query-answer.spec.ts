/**
 * A query's answer as a querier process writes it (queryResponseJson) and the frontend reads it
 * back (decodeQueryAnswer): what the frontend gets must equal what the querier computed.
 */
import type { QueryResult } from '@logsvc/api';
import { newQueryStats } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import { decodeQueryAnswer } from './query-answer';
import { queryResponseJson } from './encode/query-json';

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

describe('query answers between a querier and a frontend', () => {
  it.each(results.map((r) => ({ r, name: r.type })))('reads back a $name answer', ({ r }) => {
    const stats = newQueryStats();
    stats.querier.store.totalChunksRef = 7;
    stats.querier.store.chunk.decompressedLines = 1234;
    stats.ingester.totalReached = 3;
    stats.ingester.store.chunk.headChunkBytes = 99;
    const body = Buffer.from(queryResponseJson(r, stats));
    const back = decodeQueryAnswer(200, body);
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
    expect(decodeQueryAnswer(200, body).result).toEqual(r);
  });

  it('turns an error answer into the error of that status', () => {
    const body = Buffer.from('parse error at line 1\n');
    expect(() => decodeQueryAnswer(400, body)).toThrow(
      expect.objectContaining({ kind: 'bad_request', message: 'parse error at line 1' }),
    );
  });
});
