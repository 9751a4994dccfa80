import { describe, expect, it } from 'vitest';
import { entry, instantValues, rangeValues, repeat, TestSource } from './test-kit';

function mixed(): TestSource {
  return new TestSource()
    .add('{app="foo", pod="a", zone="eu"}', [
      ...repeat('xbar', 10, 10, 18),
      ...repeat('noise', 15, 10, 18),
    ])
    .add('{app="foo", pod="b", zone="eu"}', [
      ...repeat('xbar', 5, 5, 36),
      ...repeat('noise', 7, 5, 36),
    ])
    .add('{app="bar", pod="a", zone="us"}', [
      ...repeat('xbar', 5, 5, 36),
      ...repeat('noise', 7, 5, 36),
    ])
    .add('{app="bar", pod="b", zone="us"}', [
      ...repeat('xbar', 2, 2, 90),
      ...repeat('noise', 1, 2, 90),
    ]);
}

const COUNT = 'count_over_time({app=~"foo|bar"} |~ ".+bar" [1m])';

describe('sum/avg/min/max/count/stddev/stdvar', () => {
  const src = mixed();

  it.each([
    ['sum', 60, [20, 40, 60]],
    ['avg', 15, [5, 10, 15]],
    ['min', 6, [2, 4, 6]],
    ['max', 30, [10, 20, 30]],
    ['count', 4, [4, 4, 4]],
    ['stddev', 9, [3, 6, 9]],
    ['stdvar', 81, [9, 36, 81]],
  ] as const)('%s without grouping', async (op, at60, steps) => {
    expect(await instantValues(src, `${op}(${COUNT})`, 60)).toEqual([['{}', at60]]);
    expect(await rangeValues(src, `${op}(${COUNT})`, 20, 60, 20)).toEqual({ '{}': steps });
  });

  it('by and without, prefix and suffix forms', async () => {
    expect(await instantValues(src, `avg by (app) (${COUNT})`, 60)).toEqual([
      ['{app="bar"}', 21],
      ['{app="foo"}', 9],
    ]);
    expect(await instantValues(src, `sum(${COUNT}) by (app)`, 60)).toEqual([
      ['{app="bar"}', 42],
      ['{app="foo"}', 18],
    ]);
    expect(await instantValues(src, `max without (pod) (${COUNT})`, 60)).toEqual([
      ['{app="bar", zone="us"}', 30],
      ['{app="foo", zone="eu"}', 12],
    ]);
    expect(await instantValues(src, `stdvar without (pod, zone) (${COUNT})`, 60)).toEqual([
      ['{app="bar"}', 81],
      ['{app="foo"}', 9],
    ]);
    expect(await instantValues(src, `sum by () (${COUNT})`, 60)).toEqual([['{}', 60]]);
  });

  it('sum pushes its grouping into extraction with the same result (and offset)', async () => {
    expect(
      await instantValues(
        src,
        'sum(count_over_time({app=~"foo|bar"} |~ ".+bar" [1m] offset 30s)) by (zone, app)',
        90,
      ),
    ).toEqual([
      ['{app="bar", zone="us"}', 42],
      ['{app="foo", zone="eu"}', 18],
    ]);
  });

  it('count() grows as streams enter the window', async () => {
    const s = new TestSource()
      .add('{app="foo", pod="a"}', repeat('xbar', 10, 10, 18))
      .add('{app="foo", pod="b"}', repeat('xbar', 30, 10, 16))
      .add('{app="bar", pod="a"}', repeat('xbar', 50, 10, 14));
    expect(await rangeValues(s, `count by (app) (${COUNT})`, 20, 60, 20)).toEqual({
      '{app="bar"}': ['_', '_', 1],
      '{app="foo"}': [1, 2, 2],
    });
  });
});

describe('special values', () => {
  const src = new TestSource()
    .add('{app="a", k="fin"}', [entry('v=2', 30)])
    .add('{app="a", k="nan"}', [entry('v=NaN', 30)])
    .add('{app="a", k="pinf"}', [entry('v=Inf', 30)])
    .add('{app="a", k="ninf"}', [entry('v=-Inf', 30)]);
  const inner = (ks: string) => `max_over_time({app="a", k=~"${ks}"} | logfmt | unwrap v [1m])`;

  it.each([
    ['sum', 'fin|nan', NaN],
    ['sum', 'pinf|ninf', NaN],
    ['avg', 'fin|pinf', Infinity],
    ['min', 'fin|nan', 2],
    ['min', 'pinf|nan', Infinity],
    ['max', 'ninf|nan', -Infinity],
    ['count', 'fin|nan|pinf', 3],
    ['stddev', 'fin|pinf', NaN],
  ] as const)('%s over %s', async (op, ks, want) => {
    expect(await instantValues(src, `${op}(${inner(ks)})`, 60)).toEqual([['{}', want]]);
  });

  it('avg with an infinity does not depend on the order of samples', async () => {
    const s = new TestSource()
      .add('{app="a", k="a-inf"}', [entry('v=Inf', 30)])
      .add('{app="a", k="b-fin"}', [entry('v=2', 30)])
      .add('{app="a", k="c-ninf"}', [entry('v=-Inf', 30)]);
    const q = (ks: string) => `avg(max_over_time({app="a", k=~"${ks}"} | logfmt | unwrap v [1m]))`;
    expect(await instantValues(s, q('a-inf|b-fin'), 60)).toEqual([['{}', Infinity]]);
    expect(await instantValues(s, q('.+'), 60)).toEqual([['{}', NaN]]);
  });

  it('topk/bottomk drop NaN and treat infinities as extremes', async () => {
    expect(await instantValues(src, `topk(1, ${inner('fin|nan')})`, 60)).toEqual([
      ['{app="a", k="fin"}', 2],
    ]);
    expect(await instantValues(src, `topk(1, ${inner('ninf|nan')})`, 60)).toEqual([
      ['{app="a", k="ninf"}', -Infinity],
    ]);
    expect(await instantValues(src, `bottomk(1, ${inner('pinf|nan')})`, 60)).toEqual([
      ['{app="a", k="pinf"}', Infinity],
    ]);
    expect(await instantValues(src, `bottomk(1, ${inner('pinf|ninf')})`, 60)).toEqual([
      ['{app="a", k="ninf"}', -Infinity],
    ]);
  });

  it('sort and sort_desc put NaN last and keep their order in instant results', async () => {
    const all = inner('.+');
    expect(await instantValues(src, `sort(${all})`, 60)).toEqual([
      ['{app="a", k="ninf"}', -Infinity],
      ['{app="a", k="fin"}', 2],
      ['{app="a", k="pinf"}', Infinity],
      ['{app="a", k="nan"}', NaN],
    ]);
    expect(await instantValues(src, `sort_desc(${all})`, 60)).toEqual([
      ['{app="a", k="pinf"}', Infinity],
      ['{app="a", k="fin"}', 2],
      ['{app="a", k="ninf"}', -Infinity],
      ['{app="a", k="nan"}', NaN],
    ]);
  });
});

describe('topk / bottomk / sort', () => {
  const src = new TestSource()
    .add('{app="foo", pod="a"}', repeat('xbar', 10, 10, 18))
    .add('{app="foo", pod="b"}', repeat('xbar', 5, 5, 36))
    .add('{app="bar", pod="a"}', repeat('xbar', 4, 4, 45))
    .add('{app="bar", pod="b"}', repeat('xbar', 2, 2, 90));

  it('select series with their own labels, per group', async () => {
    expect(await instantValues(src, `topk(2, ${COUNT})`, 60)).toEqual([
      ['{app="bar", pod="a"}', 15],
      ['{app="bar", pod="b"}', 30],
    ]);
    expect(await rangeValues(src, `topk(2, ${COUNT})`, 20, 60, 20)).toEqual({
      '{app="bar", pod="a"}': [5, 10, 15],
      '{app="bar", pod="b"}': [10, 20, 30],
    });
    expect(await instantValues(src, `topk(1, ${COUNT}) by (app)`, 60)).toEqual([
      ['{app="bar", pod="b"}', 30],
      ['{app="foo", pod="b"}', 12],
    ]);
    expect(await instantValues(src, `bottomk(1, ${COUNT}) without (app)`, 60)).toEqual([
      ['{app="foo", pod="a"}', 6],
      ['{app="foo", pod="b"}', 12],
    ]);
    expect(await instantValues(src, `bottomk(1, ${COUNT}) without (app, pod)`, 60)).toEqual([
      ['{app="foo", pod="a"}', 6],
    ]);
  });

  it('ties go to the lowest label set, and k above the group size keeps all', async () => {
    const ties = new TestSource()
      .add('{app="x", pod="c"}', [entry('l', 10)])
      .add('{app="x", pod="a"}', [entry('l', 10)])
      .add('{app="x", pod="b"}', [entry('l', 10)]);
    const q = 'count_over_time({app="x"}[1m])';
    expect(await instantValues(ties, `topk(2, ${q})`, 30)).toEqual([
      ['{app="x", pod="a"}', 1],
      ['{app="x", pod="b"}', 1],
    ]);
    expect(await instantValues(ties, `bottomk(1, ${q})`, 30)).toEqual([['{app="x", pod="a"}', 1]]);
    expect(await instantValues(ties, `topk(10, ${q})`, 30)).toHaveLength(3);
  });

  it('sort order survives a binary operation with a literal; approx_topk is exact', async () => {
    expect(await instantValues(src, `sort_desc(rate(${COUNT.slice(16, -1)})) + 1`, 60)).toEqual([
      ['{app="bar", pod="b"}', 1.5],
      ['{app="bar", pod="a"}', 1.25],
      ['{app="foo", pod="b"}', 1.2],
      ['{app="foo", pod="a"}', 1.1],
    ]);
    expect(await instantValues(src, `approx_topk(1, ${COUNT})`, 60)).toEqual([
      ['{app="bar", pod="b"}', 30],
    ]);
  });
});
