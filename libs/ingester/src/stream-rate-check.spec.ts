import type { LogEntry } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { StreamRateCheck } from './stream-rate-check';

const entry = (n: number): LogEntry => ({
  timestampNs: 1n,
  line: Buffer.alloc(n, 0x61),
  structuredMetadata: [],
});
const lengths = (entries: readonly LogEntry[]) => entries.map((e) => e.line.length);

describe('StreamRateCheck', () => {
  it("refuses the entries over a stream's budget, keeps the rest, and refills over time", () => {
    const limits = { per_stream_rate_limit: 1024, per_stream_rate_limit_burst: 2048 };
    const first = new StreamRateCheck(limits, 0);
    const hot = first.newBucket();
    const cold = first.newBucket();
    expect(
      lengths(first.allowed(hot, '{a="hot"}', [entry(1500), entry(1000), entry(500)])),
    ).toEqual([1500, 500]);
    const coldEntries = [entry(100)];
    expect(first.allowed(cold, '{a="cold"}', coldEntries)).toBe(coldEntries);
    expect(first.error()).toMatchObject({
      kind: 'limit',
      reason: 'per_stream_rate_limit',
      discardedEntries: 1,
      discardedBytes: 1000,
      message: `Per stream rate limit exceeded (limit: 1KB/sec) while attempting to ingest for stream '{a="hot"}' totaling 1000B, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased`,
    });
    // 48 bytes are left now; a second later 1024 more.
    expect(new StreamRateCheck(limits, 0).allowed(hot, '{a="hot"}', [entry(100)])).toHaveLength(0);
    const later = new StreamRateCheck(limits, 1000);
    expect(later.allowed(hot, '{a="hot"}', [entry(1000), entry(1000)])).toHaveLength(1);
  });

  it('answers one 429 for several limited streams, grouped as Loki groups errors', () => {
    const sut = new StreamRateCheck(
      { per_stream_rate_limit: 10, per_stream_rate_limit_burst: 10 },
      0,
    );
    const line = entry(20);
    expect(sut.allowed(sut.newBucket(), '{a="1"}', [line])).toEqual([]);
    expect(sut.allowed(sut.newBucket(), '{a="2"}', [line, line])).toEqual([]);
    expect(sut.error()).toMatchObject({ discardedEntries: 3, discardedBytes: 60 });
    expect(sut.error()?.message).toBe(
      `2 errors like: Per stream rate limit exceeded (limit: 10B/sec) while attempting to ingest for stream '{a="1"}' totaling 20B, consider splitting a stream via additional labels or contact your Loki administrator to see if the limit can be increased`,
    );
  });

  it("keeps and refuses the same entries when given the stream's byte total", () => {
    const limits = { per_stream_rate_limit: 1024, per_stream_rate_limit_burst: 2048 };
    const sizes = [1500, 1000, 500];
    const outcome = (bytes?: number) => {
      const sut = new StreamRateCheck(limits, 0);
      const bucket = sut.newBucket();
      const kept = lengths(sut.allowed(bucket, '{a="hot"}', sizes.map(entry), bytes));
      // What is left in the bucket shows in what a second push of 48 + 1 bytes gets.
      const next = sut.allowed(bucket, '{a="hot"}', [entry(48), entry(1)]).length;
      return { kept, next, error: sut.error()?.discardedBytes };
    };
    // The total (3000) does not fit: entry by entry, as without it.
    expect(outcome(3000)).toEqual(outcome(undefined));
    expect(outcome(3000)).toEqual({ kept: [1500, 500], next: 1, error: 1001 });
    // A total that fits charges the bucket once, as the entries one by one would.
    const sut = new StreamRateCheck(limits, 0);
    const bucket = sut.newBucket();
    const fits = [entry(1000), entry(1000)];
    expect(sut.allowed(bucket, '{a="b"}', fits, 2000)).toBe(fits);
    expect(sut.allowed(bucket, '{a="b"}', [entry(48)], 48)).toHaveLength(1);
    expect(sut.allowed(bucket, '{a="b"}', [entry(1)], 1)).toHaveLength(0);
  });

  it('reports nothing when every entry fits', () => {
    const sut = new StreamRateCheck(
      { per_stream_rate_limit: 10, per_stream_rate_limit_burst: 100 },
      0,
    );
    sut.allowed(sut.newBucket(), '{a="1"}', [entry(50), entry(50)]);
    expect(sut.error()).toBeUndefined();
  });
});
