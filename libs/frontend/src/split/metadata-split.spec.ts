import { describe, expect, it } from 'vitest';
import { mergeLabelAnswers, mergeSeriesAnswers, splitMetadataQuery } from './metadata-split';

const MS = 1_000_000n;
const H = 3_600_000n * MS;
const DAY = 24n * H;
const T0 = 1_700_006_400n * 1_000_000_000n; // a day boundary (UTC)

const ranges = (splits: { startNs: bigint; endNs: bigint }[]) =>
  splits.map((s) => [(s.startNs - T0) / MS, (s.endNs - T0) / MS]);

describe('split_metadata_queries_by_interval', () => {
  it('cuts at day boundaries with the end inclusive, a millisecond between splits', () => {
    const splits = splitMetadataQuery({
      startNs: T0 + 20n * H,
      endNs: T0 + 2n * DAY + 3n * H,
      intervalNs: DAY,
      recentWindowNs: 0n,
      recentIntervalNs: H,
      nowNs: T0 + 3n * DAY,
    });
    const hMs = 3_600_000n;
    expect(ranges(splits)).toEqual([
      [20n * hMs, 24n * hMs - 1n],
      [24n * hMs, 48n * hMs - 1n],
      [48n * hMs, 51n * hMs],
    ]);
  });

  it('answers whole with the interval 0 or an empty range', () => {
    const base = { recentWindowNs: 0n, recentIntervalNs: 0n, nowNs: T0 + DAY };
    expect(
      splitMetadataQuery({ ...base, startNs: T0, endNs: T0 + 3n * DAY, intervalNs: 0n }),
    ).toEqual([{ startNs: T0, endNs: T0 + 3n * DAY }]);
    expect(
      splitMetadataQuery({ ...base, startNs: T0 + H, endNs: T0 + H, intervalNs: DAY }),
    ).toEqual([{ startNs: T0 + H, endNs: T0 + H }]);
  });

  it('cuts the part inside recent_metadata_query_window by its own interval, last', () => {
    const splits = splitMetadataQuery({
      startNs: T0 + 20n * H,
      endNs: T0 + DAY + 2n * H,
      intervalNs: DAY,
      recentWindowNs: 3n * H,
      recentIntervalNs: H,
      nowNs: T0 + DAY + 2n * H,
    });
    const hMs = 3_600_000n;
    expect(ranges(splits)).toEqual([
      [20n * hMs, 23n * hMs - 1n],
      [23n * hMs, 24n * hMs - 1n],
      [24n * hMs, 25n * hMs - 1n],
      [25n * hMs, 26n * hMs],
    ]);
  });

  it('uses only the recent interval when the whole range is inside the window', () => {
    const splits = splitMetadataQuery({
      startNs: T0 + 30n * 60_000n * MS,
      endNs: T0 + 2n * H,
      intervalNs: DAY,
      recentWindowNs: 6n * H,
      recentIntervalNs: H,
      nowNs: T0 + 2n * H,
    });
    expect(splits).toHaveLength(2);
    expect(splits[0]!.startNs).toBe(T0 + 30n * 60_000n * MS);
    expect(splits[1]!.endNs).toBe(T0 + 2n * H);
  });

  it('merges label answers sorted and series once per label set', () => {
    expect(mergeLabelAnswers([['job', 'app'], ['app', 'pod'], []])).toEqual(['app', 'job', 'pod']);
    expect(
      mergeSeriesAnswers([
        [{ app: 'a', pod: '1' }, { app: 'b' }],
        [{ pod: '1', app: 'a' }, { app: 'c' }],
      ]),
    ).toEqual([{ app: 'a', pod: '1' }, { app: 'b' }, { app: 'c' }]);
  });
});
