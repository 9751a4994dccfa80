import { parseLabels } from '@logsvc/api';
import { computeSummary, newQueryStats } from '@logsvc/logql';
import { describe, expect, it } from 'vitest';
import { queryResponseJson } from './query-json';

describe('queryResponseJson', () => {
  it('writes streams with ns strings, HTML-escaped lines and a trailing newline', () => {
    const text = queryResponseJson(
      { type: 'streams', streams: [{ labels: parseLabels('{a="<x>"}'), entries: [[5n, '<b>']] }] },
      newQueryStats(),
    );
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('"result":[{"stream":{"a":"<x>"},"values":[["5","\\u003cb\\u003e"]]}]');
    const body = JSON.parse(text);
    expect(Object.keys(body.data.stats)).toEqual([
      'summary',
      'querier',
      'ingester',
      'cache',
      'index',
      'store',
    ]);
  });

  it('writes matrix and vector samples as [seconds, "value"] like Go', () => {
    const m = JSON.parse(
      queryResponseJson(
        {
          type: 'matrix',
          series: [
            {
              labels: parseLabels('{a="1"}'),
              points: [
                [1500, 0.1],
                [2000, 1e21],
              ],
            },
          ],
        },
        newQueryStats(),
      ),
    );
    expect(m.data.result[0].values).toEqual([
      [1.5, '0.1'],
      [2, '1000000000000000000000'],
    ]);
    const v = queryResponseJson(
      { type: 'vector', samples: [{ labels: [], timestampMs: 1000, value: Infinity }] },
      newQueryStats(),
    );
    expect(v).toContain('"result":[{"metric":{},"value":[1,"+Inf"]}]');
    expect(v.endsWith('\n')).toBe(false);
  });

  it('computes the summary as Loki does', () => {
    const stats = newQueryStats();
    stats.querier.store.chunk.decompressedBytes = 100;
    stats.querier.store.chunk.decompressedLines = 10;
    stats.ingester.store.chunk.headChunkBytes = 50;
    stats.ingester.store.chunk.headChunkLines = 5;
    computeSummary(stats, 0.5, 3);
    expect(stats.summary).toMatchObject({
      totalBytesProcessed: 150,
      totalLinesProcessed: 15,
      bytesProcessedPerSecond: 300,
      linesProcessedPerSecond: 30,
      totalEntriesReturned: 3,
      execTime: 0.5,
    });
  });
});
