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

  it('counts points the server aligned to the step past the range ends in the edge buckets', () => {
    // The server evaluates at multiples of the step, here 0.7 of a step after the last bucket's
    // end and 0.6 before the first's: both windows overlap the range, so both are counted.
    const end = 1_700_000_000;
    const step = 10_080;
    const start = end - 60 * step;
    const first = end - 59 * step;
    const data = histogramData(
      [
        {
          metric: { detected_level: 'error' },
          values: [
            [end + 0.7 * step, '10'],
            [first - 0.6 * step, '2'],
            [end + 1.2 * step, '99'],
          ],
        },
      ],
      start,
      end,
      step,
    );
    const counts = data.levels[0]!.counts;
    expect(counts[59]).toBe(10);
    expect(counts[0]).toBe(2);
    expect(data.total).toBe(12);
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
