import { describe, expect, it } from 'vitest';
import { bucketEnds, histogramData, stackedColumns } from './histogram-data';

describe('histogramData', () => {
  it('covers the whole chosen range, empty buckets included, whatever the data', () => {
    // Last 7 days at 10080 s a bucket, with one hour of data: 60 buckets, one of them non-empty.
    const end = 1_700_000_000;
    const start = end - 7 * 86_400;
    const step = 10_080;
    const times = bucketEnds(start, end, step);
    expect(times).toHaveLength(60);
    expect(times[59]).toBe(end);
    expect(times[0]! - step).toBe(start);
    const data = histogramData(
      [{ metric: { detected_level: 'info' }, values: [[end - step, '7']] }],
      start,
      end,
      step,
    );
    expect(data.times).toEqual(times);
    expect(data.levels[0]!.counts.filter((c) => c > 0)).toEqual([7]);
    expect(data.levels[0]!.counts[58]).toBe(7);
  });

  it('orders levels by severity and stacks them', () => {
    const data = histogramData(
      [
        { metric: { detected_level: 'info' }, values: [[20, '5']] },
        { metric: {}, values: [[20, '1']] },
        {
          metric: { detected_level: 'error' },
          values: [
            [10, '2'],
            [20, '3'],
          ],
        },
      ],
      0,
      20,
      10,
    );
    expect(data.levels.map((l) => l.level)).toEqual(['error', 'info', 'unknown']);
    expect(data.total).toBe(11);
    // error on top of info on top of unknown.
    expect(stackedColumns(data)).toEqual([
      [2, 9],
      [0, 6],
      [0, 1],
    ]);
  });
});
