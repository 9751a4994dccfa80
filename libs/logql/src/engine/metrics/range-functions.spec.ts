import { describe, expect, it } from 'vitest';
import { quantile, rangeFunction, type WindowContext } from './range-functions';

const S = 1e9;

function run(
  op: Parameters<typeof rangeFunction>[0],
  values: number[],
  ctx?: Partial<WindowContext>,
) {
  const ts = Float64Array.from(values.map((_, i) => (i + 1) * 10 * S));
  const fn = rangeFunction(op, true);
  return fn(Float64Array.from(values), ts, 0, values.length, {
    rangeNs: 60 * S,
    windowEndNs: 60 * S,
    param: 0.5,
    ...ctx,
  });
}

describe('range functions', () => {
  it('sum, avg, min, max, first, last', () => {
    expect(run('sum_over_time', [1, 2, 3.5])).toBe(6.5);
    expect(run('avg_over_time', [7, 13])).toBe(10);
    expect(run('min_over_time', [-5, -1, -10])).toBe(-10);
    expect(run('max_over_time', [NaN, 7, 13])).toBe(13);
    expect(run('first_over_time', [NaN, 2])).toBeNaN();
    expect(run('last_over_time', [2, 3])).toBe(3);
  });

  it('avg keeps an infinite mean and gives NaN for +Inf with -Inf', () => {
    expect(run('avg_over_time', [Infinity, 5])).toBe(Infinity);
    expect(run('avg_over_time', [Infinity, -Infinity])).toBeNaN();
    expect(run('avg_over_time', [7, NaN])).toBeNaN();
  });

  it('population stdvar and stddev', () => {
    expect(run('stdvar_over_time', [2, 4, 4, 4, 5, 5, 7, 9])).toBe(4);
    expect(run('stddev_over_time', [2, 4, 4, 4, 5, 5, 7, 9])).toBe(2);
  });

  it('rate of an unwrapped value is the sum per second of range', () => {
    expect(run('rate', [2, 2, 2])).toBe(0.1);
  });

  it('quantile interpolates and bounds φ', () => {
    expect(quantile(0.4, [5, 1, 4, 2, 3])).toBeCloseTo(2.6, 12);
    expect(quantile(0.5, [4, 5])).toBe(4.5);
    expect(quantile(1.5, [1])).toBe(Infinity);
    expect(quantile(-1, [1])).toBe(-Infinity);
    expect(quantile(0.5, [])).toBeNaN();
  });
});
