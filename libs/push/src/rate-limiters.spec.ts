import { describe, expect, it } from 'vitest';
import { checkBlockedIngestion } from './block-ingestion';
import { IngestionRateLimiter } from './rate-limiters';
import { TokenBucket } from './token-bucket';

const MiB = 1 << 20;

describe('TokenBucket', () => {
  it('starts full, refuses more than it holds, and refills at the rate', () => {
    const b = new TokenBucket(100, 300, 0);
    expect(b.allowN(0, 301)).toBe(false);
    expect(b.allowN(0, 300)).toBe(true);
    expect(b.allowN(0, 1)).toBe(false);
    expect(b.allowN(500, 50)).toBe(true); // 0.5 s -> 50 tokens
    expect(b.allowN(500, 1)).toBe(false);
    expect(b.allowN(100_000, 300)).toBe(true); // refill caps at burst
    expect(b.allowN(100_000, 1)).toBe(false);
  });
});

describe('IngestionRateLimiter', () => {
  const limits = {
    ingestion_rate_mb: 1,
    ingestion_burst_size_mb: 2,
    ingestion_rate_strategy: 'local' as const,
  };

  it("allows the burst, then answers 429 with Loki's message until tokens refill", () => {
    let now = 0;
    const sut = new IngestionRateLimiter({ now: () => now });
    expect(sut.check('t1', limits, 10, 2 * MiB)).toBeUndefined();
    const err = sut.check('t1', limits, 3, 1000);
    expect(err).toMatchObject({
      kind: 'limit',
      reason: 'rate_limited',
      message: `Ingestion rate limit exceeded for user t1 (limit: ${MiB} bytes/sec) while attempting to ingest '3' lines totaling '1000' bytes, reduce log volume or contact your Loki administrator to see if the limit can be increased`,
    });
    expect(sut.check('t2', limits, 1, 1000)).toBeUndefined(); // tenants are independent
    now = 1000;
    expect(sut.check('t1', limits, 1, MiB)).toBeUndefined();
    expect(sut.check('t1', limits, 1, 1)).toBeDefined();
  });

  it('divides the rate (not the burst) among distributors with the global strategy', () => {
    let now = 0;
    const sut = new IngestionRateLimiter({ now: () => now, distributors: () => 4 });
    const global = { ...limits, ingestion_rate_strategy: 'global' as const };
    expect(sut.limit(global)).toBe(MiB / 4);
    expect(sut.check('t', global, 1, 2 * MiB)).toBeUndefined();
    now = 1000;
    expect(sut.check('t', global, 1, MiB / 4 + 1)?.message).toContain(
      `(limit: ${MiB / 4} bytes/sec)`,
    );
    expect(sut.check('t', global, 1, MiB / 4)).toBeUndefined();
  });
});

describe('block_ingestion_until', () => {
  const until = Date.parse('2030-01-02T03:04:05Z');
  it("blocks with block_ingestion_status_code and Loki's message until the instant", () => {
    const blocked = checkBlockedIngestion(
      't',
      { block_ingestion_until: until, block_ingestion_status_code: 260 },
      until - 1,
    );
    expect(blocked?.httpStatus).toBe(260);
    expect(blocked?.message).toBe(
      "ingestion blocked for user t until '2030-01-02T03:04:05Z' with status code '260'",
    );
    expect(
      checkBlockedIngestion(
        't',
        { block_ingestion_until: '2030-01-02T03:04:05Z', block_ingestion_status_code: 260 },
        until,
      ),
    ).toBeUndefined();
    expect(
      checkBlockedIngestion(
        't',
        { block_ingestion_until: null, block_ingestion_status_code: 260 },
        0,
      ),
    ).toBeUndefined();
  });

  it('answers 200 without a message when the status code is 200', () => {
    const blocked = checkBlockedIngestion(
      't',
      { block_ingestion_until: until, block_ingestion_status_code: 200 },
      0,
    );
    expect(blocked?.httpStatus).toBe(200);
    expect(blocked?.message).toBe('');
  });
});
