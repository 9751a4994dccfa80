import { describe, expect, it } from 'vitest';
import { entry, instantValues, rangeValues, repeat, TestSource } from './test-kit';

describe('window boundaries: (t - range, t]', () => {
  const src = new TestSource()
    .add('{app="foo"}', repeat('xbar', 0, 10, 13))
    .add('{app="noise"}', repeat('noise', 0, 10, 13));

  it('rate and bytes_over_time over [30s] at 60s see 3 lines (30s excluded, 60s included)', async () => {
    expect(await instantValues(src, 'rate({app="foo"}[30s])', 60)).toEqual([['{app="foo"}', 0.1]]);
    expect(await instantValues(src, 'bytes_over_time({app="foo"}[30s])', 60)).toEqual([
      ['{app="foo"}', 12],
    ]);
  });

  it('overlapping range query steps', async () => {
    expect(await rangeValues(src, 'rate({app="foo"}[30s])', 60, 120, 15)).toEqual({
      '{app="foo"}': [0.1, 0.1, 0.1, 0.1, 0.1],
    });
  });

  it('reads the source once for all steps, over (start - range, end]', async () => {
    const s = new TestSource().add('{app="foo"}', repeat('x', 0, 10, 13));
    await rangeValues(s, 'count_over_time({app="foo"}[30s] offset 10s)', 60, 120, 15);
    expect(s.selects).toHaveLength(1);
    expect(s.selects[0].fromNs).toBe(20_000_000_001n);
    expect(s.selects[0].throughNs).toBe(110_000_000_001n);
  });
});

describe('count_over_time, rate, bytes_rate with offset', () => {
  const src = new TestSource().add('{app="a"}', [
    ...repeat('keep', 0, 10, 61),
    ...repeat('noise', 5, 10, 61),
  ]);

  it('counts and rates lines', async () => {
    expect(await instantValues(src, 'count_over_time({app="a"} |= "keep" [1m])', 60)).toEqual([
      ['{app="a"}', 6],
    ]);
    expect(
      await rangeValues(src, 'count_over_time({app="a"} |= "keep" [1m])', 60, 180, 90),
    ).toEqual({ '{app="a"}': [6, 6] });
    expect(
      await rangeValues(src, 'count_over_time({app="a"} |= "keep" [5m])', 300, 600, 60),
    ).toEqual({ '{app="a"}': [30, 30, 30, 30, 30, 30] });
  });

  it('offset shifts the window back; points keep the step time', async () => {
    expect(
      await instantValues(src, 'count_over_time({app="a"} |= "keep" [1m] offset 90s)', 90),
    ).toEqual([['{app="a"}', 1]]);
    expect(
      await rangeValues(src, 'count_over_time({app="a"} |= "keep" [1m] offset 90s)', 60, 150, 30),
    ).toEqual({ '{app="a"}': ['_', 1, 4, 6] });
  });

  it('empty windows give no point, and an empty instant result', async () => {
    expect(await instantValues(src, 'count_over_time({app="a"} |= "keep" [1m])', 720)).toEqual([]);
    expect(
      await rangeValues(src, 'count_over_time({app="a"} |= "keep" [1m])', 600, 720, 60),
    ).toEqual({ '{app="a"}': [6, '_', '_'] });
  });

  it('rate over a sub-second range', async () => {
    const b = new TestSource().add('{app="b"}', repeat('keep', 0.1, 0.2, 6));
    expect(await instantValues(b, 'rate({app="b"} |= "keep" [500ms])', 0.5)).toEqual([
      ['{app="b"}', 6],
    ]);
    expect(
      await rangeValues(b, 'rate({app="b"} |= "keep" [500ms] offset 500ms)', 1, 1.6, 0.3),
    ).toEqual({ '{app="b"}': [6, 4, 6] });
  });

  it('bytes_rate divides line bytes by the range, per stream', async () => {
    const s = new TestSource()
      .add('{app="a"}', [...repeat('xbar', 0, 10, 13), ...repeat('noise', 5, 10, 13)])
      .add('{app="b"}', [...repeat('xxbar', 0, 10, 13), ...repeat('noise', 5, 10, 13)]);
    expect(await instantValues(s, 'bytes_rate({app=~"a|b"} |~ ".+bar" [30s])', 60)).toEqual([
      ['{app="a"}', 0.4],
      ['{app="b"}', 0.5],
    ]);
    expect(
      await rangeValues(s, 'bytes_rate({app=~"a|b"} |~ ".+bar" [20s] offset 90s)', 60, 150, 30),
    ).toEqual({ '{app="a"}': ['_', 0.2, 0.4, 0.4], '{app="b"}': ['_', 0.25, 0.5, 0.5] });
    expect(await rangeValues(s, 'bytes_rate({app=~"a|b"} |~ ".+bar" [20s])', 60, 150, 30)).toEqual({
      '{app="a"}': [0.4, 0.4, 0.4, '_'],
      '{app="b"}': [0.5, 0.5, 0.5, '_'],
    });
  });

  it('bytes_over_time counts the bytes of the line after the pipeline', async () => {
    const s = new TestSource().add('{app="a"}', [
      entry('a', 20),
      entry('bb', 30),
      entry('ccc', 40),
    ]);
    expect(await instantValues(s, 'bytes_over_time({app="a"}[20s] offset 20s)', 60)).toEqual([
      ['{app="a"}', 5],
    ]);
    expect(
      await instantValues(s, 'bytes_over_time({app="a"} | line_format "12345" [1m])', 60),
    ).toEqual([['{app="a"}', 15]]);
  });
});

describe('unwrapped range aggregations', () => {
  const src = new TestSource().add('{app="a"}', [
    entry('v=10', 10),
    entry('v=20', 20),
    entry('v=30', 30),
    entry('v=40', 90),
    entry('v=NaN', 100),
    entry('noise', 15),
  ]);

  it('first_over_time / last_over_time, with offset and gaps', async () => {
    const first = 'first_over_time({app="a"} | logfmt | unwrap v [1m])';
    expect(await instantValues(src, first, 60)).toEqual([['{app="a"}', 10]]);
    expect(await instantValues(src, first.replace('first', 'last'), 60)).toEqual([
      ['{app="a"}', 30],
    ]);
    expect(
      await rangeValues(src, 'first_over_time({app="a"} | logfmt | unwrap v [20s])', 20, 40, 10),
    ).toEqual({ '{app="a"}': [10, 20, 30] });
    expect(
      await rangeValues(
        src,
        'last_over_time({app="a"} | logfmt | unwrap v [20s] offset 30s)',
        60,
        120,
        30,
      ),
    ).toEqual({ '{app="a"}': [30, '_', 40] });
    expect(
      await instantValues(src, 'last_over_time({app="a"} | logfmt | unwrap v [30s])', 110),
    ).toEqual([['{app="a"}', NaN]]);
  });

  it('sum_over_time, rate with unwrap (sum / seconds), labels lose the unwrapped one', async () => {
    const s = new TestSource()
      .add('{app="p"}', repeat('v=2', 0, 10, 13))
      .add('{app="s", v="2"}', repeat('x', 0, 10, 13))
      .add('{app="m"}', repeat('x', 0, 10, 13, { v: '2' }));
    expect(await instantValues(s, 'rate({app=~"p|s|m"} | logfmt | unwrap v [30s])', 60)).toEqual([
      ['{app="m"}', 0.2],
      ['{app="p"}', 0.2],
      ['{app="s"}', 0.2],
    ]);
    expect(await instantValues(s, 'sum_over_time({app="s"} | unwrap v [30s])', 60)).toEqual([
      ['{app="s"}', 6],
    ]);
  });

  it('unwrap conversions: bytes() and duration()', async () => {
    const s = new TestSource().add('{app="a"}', [
      entry('size=1KiB took=1.5s', 10),
      entry('size=2KiB took=500ms', 20),
    ]);
    expect(
      await instantValues(s, 'sum_over_time({app="a"} | logfmt | unwrap bytes(size) [1m])', 30),
    ).toEqual([
      ['{app="a", took="1.5s"}', 1024],
      ['{app="a", took="500ms"}', 2048],
    ]);
    expect(
      await instantValues(
        s,
        'sum by (app) (sum_over_time({app="a"} | logfmt | unwrap duration(took) [1m]))',
        30,
      ),
    ).toEqual([['{app="a"}', 2]]);
  });

  it('conversion errors fail the query unless filtered; the error series keeps all labels', async () => {
    const s = new TestSource().add('{app="err"}', [
      entry('msg', 20, { v: 'oops' }),
      entry('msg', 40, { v: '6' }),
    ]);
    await expect(instantValues(s, 'rate({app="err"} | unwrap v [1m])', 60)).rejects.toThrow(
      /^pipeline error: 'SampleExtractionErr' for series: '\{__error__="SampleExtractionErr", __error_details__="strconv.ParseFloat: parsing \\"oops\\": invalid syntax", app="err", v="oops"\}'.\nUse a label filter to intentionally skip this error/,
    );
    expect(await instantValues(s, 'rate({app="err"} | unwrap v | __error__="" [1m])', 60)).toEqual([
      ['{app="err"}', 0.1],
    ]);
    // The error sample is outside the evaluated window: no failure.
    expect(await instantValues(s, 'rate({app="err"} | unwrap v [10s])', 45)).toEqual([
      ['{app="err"}', 0.6],
    ]);
  });

  it('parser errors fail count_over_time too', async () => {
    const s = new TestSource().add('{app="j"}', [entry('not json', 10), entry('{"a":"b"}', 20)]);
    await expect(instantValues(s, 'count_over_time({app="j"} | json [1m])', 30)).rejects.toThrow(
      "pipeline error: 'JSONParserErr'",
    );
    expect(
      await instantValues(s, 'count_over_time({app="j"} | json | __error__="" [1m])', 30),
    ).toEqual([['{a="b", app="j"}', 1]]);
  });

  it('avg, min, max with special values', async () => {
    const s = new TestSource()
      .add('{app="a", c="multi"}', [entry('v=7', 20), entry('v=13', 30)])
      .add('{app="a", c="nan"}', [entry('v=7', 20), entry('v=NaN', 40)])
      .add('{app="a", c="posinf"}', [entry('v=+Inf', 20), entry('v=5', 40)])
      .add('{app="a", c="mixinf"}', [entry('v=+Inf', 20), entry('v=-Inf', 40)]);
    expect(await instantValues(s, 'avg_over_time({app="a"} | logfmt | unwrap v [1m])', 60)).toEqual(
      [
        ['{app="a", c="mixinf"}', NaN],
        ['{app="a", c="multi"}', 10],
        ['{app="a", c="nan"}', NaN],
        ['{app="a", c="posinf"}', Infinity],
      ],
    );
    expect(
      await rangeValues(
        s,
        'avg_over_time({app="a"} | logfmt | unwrap v [20s] offset 30s)',
        40,
        100,
        20,
      ),
    ).toEqual({
      '{app="a", c="mixinf"}': ['_', Infinity, -Infinity, '_'],
      '{app="a", c="multi"}': ['_', 10, '_', '_'],
      '{app="a", c="nan"}': ['_', 7, NaN, '_'],
      '{app="a", c="posinf"}': ['_', Infinity, 5, '_'],
    });
    expect(await instantValues(s, 'max_over_time({app="a"} | logfmt | unwrap v [1m])', 60)).toEqual(
      [
        ['{app="a", c="mixinf"}', Infinity],
        ['{app="a", c="multi"}', 13],
        ['{app="a", c="nan"}', 7],
        ['{app="a", c="posinf"}', Infinity],
      ],
    );
    expect(
      await instantValues(s, 'min_over_time({app="a", c="nan"} | logfmt | unwrap v [1m])', 60),
    ).toEqual([['{app="a", c="nan"}', 7]]);
  });

  it('stddev_over_time / stdvar_over_time are population statistics', async () => {
    const s = new TestSource().add(
      '{app="a"}',
      [2, 4, 4, 4, 5, 5, 7, 9].map((v, i) => entry(`v=${v}`, i + 1)),
    );
    expect(
      await instantValues(s, 'stdvar_over_time({app="a"} | logfmt | unwrap v [1m])', 10),
    ).toEqual([['{app="a"}', 4]]);
    expect(
      await instantValues(s, 'stddev_over_time({app="a"} | logfmt | unwrap v [1m])', 10),
    ).toEqual([['{app="a"}', 2]]);
  });

  it('quantile_over_time interpolates; φ > 1 is +Inf', async () => {
    const s = new TestSource().add('{app="a"}', [
      ...[1, 2, 3, 4, 5].map((v) => entry(`v=${v}`, v * 10)),
      entry('v=6', 110),
    ]);
    const q = (phi: number, r = '1m') =>
      `quantile_over_time(${phi}, {app="a"} | logfmt | unwrap v [${r}])`;
    expect((await instantValues(s, q(0.4), 60))[0][1]).toBeCloseTo(2.6, 12);
    expect(await instantValues(s, q(0.5), 60)).toEqual([['{app="a"}', 3]]);
    expect(await instantValues(s, q(1.5), 60)).toEqual([['{app="a"}', Infinity]]);
    expect(await rangeValues(s, q(0.5, '15s'), 20, 50, 30)).toEqual({ '{app="a"}': [1.5, 4.5] });
    expect(await rangeValues(s, q(0.5, '15s'), 50, 110, 30)).toEqual({
      '{app="a"}': [4.5, '_', 6],
    });
  });
});

describe('range aggregation grouping', () => {
  const src = new TestSource()
    .add('{app="a", pod="1"}', [entry('v=2', 20), entry('v=4', 30), entry('noise', 25)])
    .add('{app="a", pod="2"}', [entry('v=10', 40), entry('v=20', 50)]);

  it('by, without, by () share one window per group', async () => {
    const q = (g: string) => `avg_over_time({app="a"} | logfmt | unwrap v [1m]) ${g}`;
    expect(await instantValues(src, q('by (pod)'), 60)).toEqual([
      ['{pod="1"}', 3],
      ['{pod="2"}', 15],
    ]);
    expect(await instantValues(src, q('without (pod)'), 60)).toEqual([['{app="a"}', 9]]);
    expect(await instantValues(src, q('by ()'), 60)).toEqual([['{}', 9]]);
    expect(await instantValues(src, q('without ()'), 60)).toEqual([
      ['{app="a", pod="1"}', 3],
      ['{app="a", pod="2"}', 15],
    ]);
    expect(
      await instantValues(src, 'first_over_time({app="a"} | logfmt | unwrap v [1m]) by (pod)', 60),
    ).toEqual([
      ['{pod="1"}', 2],
      ['{pod="2"}', 10],
    ]);
    expect(
      await rangeValues(
        src,
        'last_over_time({app="a"} | logfmt | unwrap v [10s]) by (pod)',
        20,
        50,
        10,
      ),
    ).toEqual({ '{pod="1"}': [2, 4, '_', '_'], '{pod="2"}': ['_', '_', 10, 20] });
  });

  it('quantile_over_time by (app) merges the streams of a group', async () => {
    expect(
      await instantValues(
        src,
        'quantile_over_time(0.5, {app="a"} | logfmt | unwrap v [1m]) by (app)',
        60,
      ),
    ).toEqual([['{app="a"}', 7]]);
  });

  it('drop then group by the dropped label gives {}', async () => {
    expect(
      await instantValues(
        src,
        'avg_over_time({app="a"} | logfmt | drop pod | unwrap v [1m]) by (pod)',
        60,
      ),
    ).toEqual([['{}', 9]]);
  });
});

describe('rate_counter (Prometheus extrapolation, corrected)', () => {
  const src = new TestSource().add('{app="a"}', [
    ...[
      [90, 100],
      [120, 130],
      [150, 160],
      [180, 250],
      [210, 280],
      [240, 340],
      [330, 400],
      [360, 430],
      [390, 460],
      [420, 550],
      [450, 580],
      [480, 640],
    ].map(([t, c]) => entry(`c=${c}`, t)),
    ...repeat('noise', 15, 30, 18),
  ]);
  const q = (r: string, extra = '') => `rate_counter({app="a"} | logfmt | unwrap c [${r}]${extra})`;

  it('extrapolates to the window edges', async () => {
    expect(await instantValues(src, q('1m'), 480)).toEqual([['{app="a"}', 2]]);
    expect(await rangeValues(src, q('1m'), 60, 540, 60)).toEqual({
      '{app="a"}': ['_', 1, 3, 2, '_', 1, 3, 2, '_'],
    });
    expect(await rangeValues(src, q('3m'), 240, 360, 60)).toEqual({
      '{app="a"}': [1.6, 1.5, 1],
    });
    expect(await instantValues(src, q('1m', ' offset 60s'), 180)).toEqual([['{app="a"}', 1]]);
  });

  it('a single sample gives 0', async () => {
    expect(await instantValues(src, q('10s'), 90)).toEqual([['{app="a"}', 0]]);
    expect(await instantValues(src, q('10s'), 300)).toEqual([]);
  });

  it('adds back counter resets, caps extrapolation at the zero point and half an interval', async () => {
    const reset = new TestSource().add(
      '{app="a"}',
      [30, 60, 90, 30, 60].map((c, i) => entry(`c=${c}`, 30 * (i + 1))),
    );
    expect(await instantValues(reset, q('2m'), 150)).toEqual([['{app="a"}', 1]]);
    const zero = new TestSource().add('{app="a"}', [
      entry('c=30', 75),
      entry('c=90', 105),
      entry('c=150', 135),
    ]);
    expect(await instantValues(zero, q('1m'), 105)).toEqual([['{app="a"}', 1.5]]);
    const far = new TestSource().add('{app="a"}', [entry('c=600', 150), entry('c=660', 180)]);
    expect(await instantValues(far, q('150s'), 240)).toEqual([['{app="a"}', 0.8]]);
    const capFirst = new TestSource().add('{app="a"}', [entry('c=40', 180), entry('c=100', 210)]);
    expect(await instantValues(capFirst, q('90s'), 210)).toEqual([['{app="a"}', 1]]);
  });
});

describe('absent_over_time', () => {
  it('returns 1 with the equality matchers as labels when nothing matched', async () => {
    const src = new TestSource().add('{app="foo"}', repeat('noise', 0, 10, 61));
    expect(await instantValues(src, 'absent_over_time({app="foo"} |~ ".+bar" [5m])', 300)).toEqual([
      ['{app="foo"}', 1],
    ]);
    expect(
      await instantValues(
        src,
        'absent_over_time({app="foo", app=~"f.*", env="prod", job!="x"} |= "zzz" [5m])',
        300,
      ),
    ).toEqual([['{env="prod"}', 1]]);
  });

  it('only at steps whose window is empty', async () => {
    const src = new TestSource()
      .add('{app="foo"}', repeat('xbar', 130, 30, 6))
      .add('{app="foo"}', repeat('noise', 0, 30, 15));
    expect(
      await rangeValues(src, 'absent_over_time({app="foo"} |~ ".+bar" [1m])', 60, 420, 60),
    ).toEqual({ '{app="foo"}': [1, 1, '_', '_', '_', 1, 1] });
  });
});
