import { parseLabels, type PushRequest } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { StreamRateLimiter } from './stream-rate-limiter';

describe('StreamRateLimiter', () => {
  it("refuses the entries over a stream's budget and keeps the rest", () => {
    let now = 0;
    const sut = new StreamRateLimiter({ now: () => now });
    const limits = { per_stream_rate_limit: 1024, per_stream_rate_limit_burst: 2048 };
    const e = (n: number) => ({
      timestampNs: 1n,
      line: Buffer.alloc(n, 0x61),
      structuredMetadata: [],
    });
    const req: PushRequest = {
      streams: [
        { labels: parseLabels('{a="hot"}'), entries: [e(1500), e(1000), e(500)] },
        { labels: parseLabels('{a="cold"}'), entries: [e(100)] },
      ],
    };
    const r = sut.apply('t', limits, req);
    expect(r.request.streams.map((s) => s.entries.map((x) => x.line.length))).toEqual([
      [1500, 500],
      [100],
    ]);
    expect(r.error).toMatchObject({
      kind: 'limit',
      message: `Per stream rate limit exceeded (limit: 1KB/sec) while attempting to ingest for stream '{a="hot"}' totaling 1000B, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased`,
    });
    expect(r.error).toMatchObject({
      reason: 'per_stream_rate_limit',
      discardedEntries: 1,
      discardedBytes: 1000,
    });
    now = 1000;
    expect(
      sut.apply('t', limits, { streams: [req.streams[0]] }).request.streams[0].entries,
    ).toHaveLength(1);
  });

  it('answers one 429 for several limited streams, grouped as Loki groups errors', () => {
    const sut = new StreamRateLimiter({ now: () => 0 });
    const limits = { per_stream_rate_limit: 10, per_stream_rate_limit_burst: 10 };
    const line = { timestampNs: 1n, line: Buffer.alloc(20, 0x61), structuredMetadata: [] };
    const r = sut.apply('t', limits, {
      streams: [
        { labels: parseLabels('{a="1"}'), entries: [line] },
        { labels: parseLabels('{a="2"}'), entries: [line, line] },
      ],
    });
    expect(r.request.streams).toEqual([]);
    expect(r.error).toMatchObject({ discardedEntries: 3, discardedBytes: 60 });
    expect(r.error?.message).toBe(
      `2 errors like: Per stream rate limit exceeded (limit: 10B/sec) while attempting to ingest for stream '{a="1"}' totaling 20B, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased`,
    );
  });
});
