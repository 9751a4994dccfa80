import { describe, expect, it } from 'vitest';
import { EMPTY_METRIC } from './labels';
import { SegmentGrid, SegmentSeries } from './segment-series';

describe('SegmentGrid', () => {
  it('cuts the time line at every window edge; windows are runs of segments', () => {
    // steps at 0, 10, 20 with range 15: windows (-15,0], (-5,10], (5,20]
    const grid = new SegmentGrid(3, 10, 15);
    expect(Array.from(grid.edges)).toEqual([-15, -5, 0, 5, 10, 20]);
    expect(Array.from(grid.startIndex)).toEqual([0, 1, 3]);
    expect(Array.from(grid.endIndex)).toEqual([2, 4, 5]);
    expect(grid.segmentOf(-5, 0)).toBe(1);
    expect(grid.segmentOf(-4.5, 1)).toBe(2);
    expect(grid.segmentOf(19, 2)).toBe(5);
  });
});

describe('SegmentSeries', () => {
  it('merges samples per segment, also when added out of order', () => {
    const s = new SegmentSeries(EMPTY_METRIC, undefined);
    s.add(3, 10);
    s.add(3, 5);
    s.add(1, 1);
    s.add(3, 1);
    s.finish();
    expect(Array.from(s.segments.subarray(0, s.length))).toEqual([1, 3]);
    expect(s.slide(0, 3)).toBe(true);
    expect([s.count(), s.sum()]).toEqual([4, 17]);
    expect(s.slide(1, 3)).toBe(true);
    expect([s.count(), s.sum()]).toEqual([3, 16]);
    expect(s.slide(3, 5)).toBe(false);
  });
});
