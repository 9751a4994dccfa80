import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alignStartEndToStep,
  DEFAULT_SPLIT_QUERIES_BY_INTERVAL_NS,
  evaluationTimestamps,
  forInterval,
  nextIntervalBoundary,
  splitLogQuery,
  splitMetricQuery,
  subQueriesWithinLimit,
  type TimeRange,
} from './split';

const MS = 1_000_000n;
const S = 1000n * MS;
const M = 60n * S;
const H = 60n * M;
const T0 = 1_700_000_000_000n * MS; // 2023-11-14T22:13:20Z, a whole hour minus 13m20s

const fmt = (rs: TimeRange[], base = 0n): [bigint, bigint][] =>
  rs.map((r) => [r.startNs - base, r.endNs - base]);

describe('forInterval (Loki util.ForInterval)', () => {
  it('cuts at interval multiples, keeping the original start and end', () => {
    expect(fmt(forInterval(H, 30n * M, 2n * H + 10n * M))).toEqual([
      [30n * M, H],
      [H, 2n * H],
      [2n * H, 2n * H + 10n * M],
    ]);
  });
  it('leaves a 1ms gap for end-inclusive (metadata) queries', () => {
    expect(fmt(forInterval(H, 30n * M, 2n * H, true))).toEqual([
      [30n * M, H - MS],
      [H, 2n * H],
    ]);
  });
  it('gives nothing for an empty range and everything for interval 0', () => {
    expect(forInterval(H, H, H)).toEqual([]);
    expect(forInterval(H, 5n, 5n)).toEqual([{ startNs: 5n, endNs: 5n }]); // as in Loki
    expect(forInterval(0n, 5n, 7n)).toEqual([{ startNs: 5n, endNs: 7n }]);
  });
});

describe('metric query splitting (Loki metricQuerySplitter)', () => {
  it('aligns start down and end up to the step', () => {
    expect(alignStartEndToStep(10n * S, 12n * S, 31n * S)).toEqual({
      startNs: 10n * S,
      endNs: 40n * S,
    });
    expect(() => alignStartEndToStep(0n, 0n, 1n)).toThrow(RangeError);
  });

  it('nextIntervalBoundary: the last step before the next interval boundary', () => {
    // start 0:00:07, step 15s: timestamps 0:00:07 + 15s*k; last before 1:00:00 is 0:59:52.
    expect(nextIntervalBoundary(7n * S, 15n * S, H)).toBe(59n * M + 52n * S);
    // on the grid: 1:00:00 itself belongs to the next split
    expect(nextIntervalBoundary(0n, 15n * S, H)).toBe(H - 15n * S);
  });

  it('splits a 3h query at hour boundaries on the step grid (Loki test case shape)', () => {
    const got = splitMetricQuery({ startNs: 0n, endNs: 3n * H, stepNs: 15n * S, intervalNs: H });
    expect(fmt(got)).toEqual([
      [0n, H - 15n * S],
      [H, 2n * H - 15n * S],
      [2n * H, 3n * H],
    ]);
  });

  it('keeps an unaligned start on its step grid', () => {
    const got = splitMetricQuery({
      startNs: 7n * S,
      endNs: 2n * H,
      stepNs: 15n * S,
      intervalNs: H,
    });
    expect(fmt(got)).toEqual([
      [0n, H - 15n * S],
      [H, 2n * H],
    ]);
    const got2 = splitMetricQuery({
      startNs: 7n * S,
      endNs: 2n * H,
      stepNs: 14n * S,
      intervalNs: H,
    });
    expect(got2[0]!.startNs).toBe(0n);
    expect(got2[0]!.endNs).toBe(59n * M + 58n * S); // 14s * 257
    expect(got2[1]!.startNs).toBe(got2[0]!.endNs + 14n * S);
  });

  it("matches Loki's Test_splitMetricQuery cases", () => {
    const u = (sec: bigint) => sec * S;
    const split = (start: bigint, end: bigint, step: bigint, interval: bigint) =>
      splitMetricQuery({
        startNs: u(start),
        endNs: u(end),
        stepNs: u(step),
        intervalNs: interval,
      }).map((r) => [r.startNs / S, r.endNs / S]);
    expect(split(0n, 2n * 86400n, 15n, 24n * H)).toEqual([
      [0n, 86400n - 15n],
      [86400n, 2n * 86400n],
    ]);
    expect(split(3n * 3600n, 3n * 86400n, 15n, 24n * H)).toEqual([
      [3n * 3600n, 86400n - 15n],
      [86400n, 2n * 86400n - 15n],
      [2n * 86400n, 3n * 86400n],
    ]);
    // step not a divisor of the interval: 2h mod 17s = 9s, 3h mod 17s = 5s, 6h mod 17s = 10s
    const want17 = [
      [2n * 3600n - 9n, 3n * 3600n - 5n],
      [3n * 3600n + 12n, 6n * 3600n - 10n],
      [6n * 3600n + 7n, 9n * 3600n + 2n],
    ];
    expect(split(2n * 3600n - 9n, 9n * 3600n, 17n, 3n * H)).toEqual(want17);
    expect(split(2n * 3600n, 9n * 3600n + 2n, 17n, 3n * H)).toEqual(want17);
  });

  it('does not split by less than the largest range vector', () => {
    const got = splitMetricQuery({
      startNs: 0n,
      endNs: 6n * H,
      stepNs: M,
      intervalNs: H,
      maxRangeNs: 2n * H,
    });
    expect(got).toHaveLength(3);
  });

  it('splits by step when the step is at least the interval, without repeating timestamps', () => {
    const got = splitMetricQuery({ startNs: 0n, endNs: 3n * H, stepNs: H, intervalNs: H });
    expect(fmt(got)).toEqual([
      [0n, H],
      [2n * H, 2n * H],
      [3n * H, 3n * H],
    ]);
  });

  it('passes unsplittable queries through as one aligned sub-query', () => {
    expect(
      splitMetricQuery({ startNs: 5n * S, endNs: 5n * S, stepNs: 10n * S, intervalNs: H }),
    ).toEqual([{ startNs: 0n, endNs: 10n * S }]);
    expect(
      splitMetricQuery({ startNs: 10n * S, endNs: 10n * S, stepNs: 10n * S, intervalNs: H }),
    ).toEqual([{ startNs: 10n * S, endNs: 10n * S }]);
    expect(
      splitMetricQuery({ startNs: 0n, endNs: 5n * H, stepNs: S, intervalNs: 0n }),
    ).toHaveLength(1);
  });

  it('a 24h query at the default interval is 24 or 25 sub-queries', () => {
    const q = { stepNs: 30n * S, intervalNs: DEFAULT_SPLIT_QUERIES_BY_INTERVAL_NS };
    expect(
      splitMetricQuery({ ...q, startNs: T0 - 13n * M - 20n * S, endNs: T0 + 23n * H }),
    ).toHaveLength(24);
    expect(splitMetricQuery({ ...q, startNs: T0, endNs: T0 + 24n * H })).toHaveLength(25);
  });

  it('property: sub-queries evaluate exactly the aligned unsplit query timestamps, once each', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -10n * H, max: 100n * H }),
        fc.bigInt({ min: 0n, max: 30n * H }),
        fc.oneof(
          fc.bigInt({ min: 1n, max: 120_000n }).map((ms) => ms * MS),
          fc.constantFrom(S, 15n * S, 7n * S, M, 59n * M, H, 90n * M, 2n * H, 24n * H),
        ),
        fc.constantFrom(M, 5n * M, 7n * M + 3n * S, H, 3n * H, 24n * H),
        fc.option(fc.constantFrom(M, 2n * H, 5n * H), { nil: undefined }),
        (startNs, anyLenNs, stepNs, intervalNs, maxRangeNs) => {
          const endNs = startNs + (anyLenNs % (3000n * stepNs)); // at most ~3000 timestamps
          const aligned = alignStartEndToStep(stepNs, startNs, endNs);
          const want = evaluationTimestamps(aligned, stepNs);
          const subs = splitMetricQuery({ startNs, endNs, stepNs, intervalNs, maxRangeNs });
          const got = subs.flatMap((r) => {
            // every sub-query is already step-aligned, so the querier evaluates it as sent
            expect(alignStartEndToStep(stepNs, r.startNs, r.endNs)).toEqual(r);
            expect(r.startNs <= r.endNs).toBe(true);
            return evaluationTimestamps(r, stepNs);
          });
          expect(got).toEqual(want); // same timestamps, in order, no duplicates
          for (let i = 1; i < subs.length; i++)
            expect(subs[i]!.startNs).toBe(subs[i - 1]!.endNs + stepNs);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: on step-aligned input the timestamps equal the unsplit query exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.bigInt({ min: 0n, max: 3_000n }),
        fc.constantFrom(S, 10n * S, 15n * S, M, 20n * M),
        (startSteps, lenSteps, stepNs) => {
          const startNs = startSteps * stepNs;
          const endNs = startNs + lenSteps * stepNs;
          const subs = splitMetricQuery({ startNs, endNs, stepNs, intervalNs: H });
          expect(subs.flatMap((r) => evaluationTimestamps(r, stepNs))).toEqual(
            evaluationTimestamps({ startNs, endNs }, stepNs),
          );
          // every sub-query stays within one interval bucket (end on the last step before it)
          for (const r of subs)
            expect(r.startNs / H === r.endNs / H || r.endNs === endNs).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('log query splitting (Loki defaultSplitter, LokiRequest)', () => {
  it('splits [start, end) at interval multiples, oldest first for forward', () => {
    const got = splitLogQuery({
      startNs: 30n * M,
      endNs: 3n * H,
      intervalNs: H,
      direction: 'forward',
    });
    expect(fmt(got)).toEqual([
      [30n * M, H],
      [H, 2n * H],
      [2n * H, 3n * H],
    ]);
  });
  it('newest first for backward', () => {
    const got = splitLogQuery({
      startNs: 30n * M,
      endNs: 3n * H,
      intervalNs: H,
      direction: 'backward',
    });
    expect(fmt(got)).toEqual([
      [2n * H, 3n * H],
      [H, 2n * H],
      [30n * M, H],
    ]);
  });
  it('passes an empty range or interval 0 through', () => {
    expect(
      splitLogQuery({ startNs: 1n, endNs: 1n, intervalNs: H, direction: 'forward' }),
    ).toHaveLength(1);
    expect(
      splitLogQuery({ startNs: 0n, endNs: 9n * H, intervalNs: 0n, direction: 'forward' }),
    ).toHaveLength(1);
  });
  it('property: the sub-ranges tile [start, end) without gap or overlap', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -5n * H, max: 100n * H }),
        fc.bigInt({ min: 1n, max: 30n * H }),
        fc.constantFrom(MS, M, 15n * M, H, 24n * H),
        fc.constantFrom<'forward' | 'backward'>('forward', 'backward'),
        (startNs, anyLenNs, intervalNs, direction) => {
          const endNs = startNs + 1n + (anyLenNs % (1000n * intervalNs)); // at most ~1000 splits
          const subs = splitLogQuery({ startNs, endNs, intervalNs, direction });
          const ordered = direction === 'backward' ? [...subs].reverse() : subs;
          expect(ordered[0]!.startNs).toBe(startNs);
          expect(ordered.at(-1)!.endNs).toBe(endNs);
          for (const r of ordered) expect(r.startNs < r.endNs).toBe(true);
          for (let i = 1; i < ordered.length; i++)
            expect(ordered[i]!.startNs).toBe(ordered[i - 1]!.endNs);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('stops merging sub-query results once the limit is reached', () => {
    expect(subQueriesWithinLimit(100, [40, 60, 10])).toBe(2);
    expect(subQueriesWithinLimit(100, [40, 59, 10])).toBe(3);
    expect(subQueriesWithinLimit(100, [150, 0])).toBe(1);
    expect(subQueriesWithinLimit(0, [150, 0, 3])).toBe(3);
  });
});

describe('split_ingester_queries_by_interval (Loki ingesterQueryBounds)', () => {
  const B = (T0 / H) * H;

  it('cuts the part of a metric query inside the ingester window by its own interval', () => {
    const got = splitMetricQuery({
      startNs: B,
      endNs: B + 3n * H,
      stepNs: M,
      intervalNs: H,
      ingester: { windowStartNs: B + 2n * H + 30n * M, intervalNs: 10n * M },
    });
    expect(fmt(got, B)).toEqual([
      [0n, 59n * M],
      [H, H + 59n * M],
      [2n * H, 2n * H + 29n * M],
      [2n * H + 30n * M, 2n * H + 39n * M],
      [2n * H + 40n * M, 2n * H + 49n * M],
      [2n * H + 50n * M, 3n * H],
    ]);
    // Every evaluation timestamp of the query, once.
    const ts = got.flatMap((r) => evaluationTimestamps(r, M));
    expect(ts).toEqual(evaluationTimestamps({ startNs: B, endNs: B + 3n * H }, M));
  });

  it('cuts only by it when the whole metric query is inside the window, not at all before it', () => {
    const inside = splitMetricQuery({
      startNs: B,
      endNs: B + 30n * M,
      stepNs: M,
      intervalNs: H,
      ingester: { windowStartNs: B - H, intervalNs: 10n * M },
    });
    expect(fmt(inside, B)).toEqual([
      [0n, 9n * M],
      [10n * M, 19n * M],
      [20n * M, 30n * M],
    ]);
    const before = splitMetricQuery({
      startNs: B,
      endNs: B + 30n * M,
      stepNs: M,
      intervalNs: H,
      ingester: { windowStartNs: B + H, intervalNs: 10n * M },
    });
    expect(fmt(before, B)).toEqual([[0n, 30n * M]]);
  });

  it('cuts the part of a log query inside the window by its own interval, newest first backward', () => {
    const req = {
      startNs: B,
      endNs: B + 3n * H,
      intervalNs: H,
      ingester: { windowStartNs: B + 2n * H + 15n * M, intervalNs: 30n * M },
    };
    const forward = [
      [0n, H],
      [H, 2n * H],
      [2n * H, 2n * H + 15n * M],
      [2n * H + 15n * M, 2n * H + 30n * M],
      [2n * H + 30n * M, 3n * H],
    ];
    expect(fmt(splitLogQuery({ ...req, direction: 'forward' }), B)).toEqual(forward);
    expect(fmt(splitLogQuery({ ...req, direction: 'backward' }), B)).toEqual(forward.reverse());
  });
});
