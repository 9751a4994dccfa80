import { describe, expect, it } from 'vitest';
import { instantValues, rangeValues, repeat, TestSource } from './test-kit';

const src = new TestSource()
  .add('{app="foo", pod="a"}', repeat('x', 10, 10, 18)) // 6 per minute
  .add('{app="foo", pod="b"}', repeat('x', 5, 5, 36)) // 12 per minute
  .add('{app="bar", pod="a"}', repeat('x', 4, 4, 45)) // 15 per minute
  .add('{app="err", pod="a"}', repeat('x', 20, 20, 9)); // 3 per minute

const C = (sel: string) => `count_over_time(${sel}[1m])`;
const FOO = C('{app="foo"}');
const ALL = C('{app=~"foo|bar"}');

describe('vector and scalar', () => {
  it('arithmetic on every sample, the literal on either side', async () => {
    expect(await instantValues(src, `${FOO} * 2`, 60)).toEqual([
      ['{app="foo", pod="a"}', 12],
      ['{app="foo", pod="b"}', 24],
    ]);
    expect(await instantValues(src, `100 - ${FOO}`, 60)).toEqual([
      ['{app="foo", pod="a"}', 94],
      ['{app="foo", pod="b"}', 88],
    ]);
    expect(await instantValues(src, `${FOO} ^ 2 % 7`, 60)).toEqual([
      ['{app="foo", pod="a"}', 36 % 7],
      ['{app="foo", pod="b"}', 144 % 7],
    ]);
  });

  it('division and modulo by zero give NaN', async () => {
    expect(await instantValues(src, `${FOO} / 0`, 60)).toEqual([
      ['{app="foo", pod="a"}', NaN],
      ['{app="foo", pod="b"}', NaN],
    ]);
    expect(await instantValues(src, `${FOO} % 0`, 60)).toHaveLength(2);
    expect((await instantValues(src, `${FOO} % 0`, 60))[0][1]).toBeNaN();
  });

  it('comparisons filter and keep the vector value on either side; bool gives 0/1', async () => {
    expect(await instantValues(src, `${FOO} > 10`, 60)).toEqual([['{app="foo", pod="b"}', 12]]);
    expect(await instantValues(src, `10 < ${FOO}`, 60)).toEqual([['{app="foo", pod="b"}', 12]]);
    expect(await instantValues(src, `${FOO} > bool 10`, 60)).toEqual([
      ['{app="foo", pod="a"}', 0],
      ['{app="foo", pod="b"}', 1],
    ]);
    expect(await rangeValues(src, `${FOO} >= bool 6`, 30, 60, 30)).toEqual({
      '{app="foo", pod="a"}': [0, 1],
      '{app="foo", pod="b"}': [1, 1],
    });
  });

  it('scalar expressions are folded; an instant query returns a scalar', async () => {
    expect(await instantValues(src, '1 + 2 * 3', 60)).toEqual([['scalar', 7]]);
    expect(await instantValues(src, '2 > bool 1', 60)).toEqual([['scalar', 1]]);
    expect(await instantValues(src, `${FOO} * (1 + 1)`, 60)).toEqual([
      ['{app="foo", pod="a"}', 12],
      ['{app="foo", pod="b"}', 24],
    ]);
  });
});

describe('vector and vector', () => {
  it('one-to-one on identical label sets', async () => {
    expect(await instantValues(src, `${FOO} + ${FOO}`, 60)).toEqual([
      ['{app="foo", pod="a"}', 12],
      ['{app="foo", pod="b"}', 24],
    ]);
    expect(await instantValues(src, `${ALL} / ${FOO}`, 60)).toEqual([
      ['{app="foo", pod="a"}', 1],
      ['{app="foo", pod="b"}', 1],
    ]);
  });

  it('on() keeps only the matching labels, ignoring() drops the ignored ones', async () => {
    const bar = C('{app="bar"}');
    expect(await instantValues(src, `${bar} - on(pod) ${C('{app="err"}')}`, 60)).toEqual([
      ['{pod="a"}', 12],
    ]);
    expect(await instantValues(src, `${bar} - ignoring(app) ${C('{app="err"}')}`, 60)).toEqual([
      ['{pod="a"}', 12],
    ]);
  });

  it('comparisons keep the left value; bool gives 0/1 with the result labels', async () => {
    const bar = C('{app="bar"}');
    const err = C('{app="err"}');
    expect(await instantValues(src, `${bar} > on(pod) ${err}`, 60)).toEqual([['{pod="a"}', 15]]);
    expect(await instantValues(src, `${err} > on(pod) ${bar}`, 60)).toEqual([]);
    expect(await instantValues(src, `${err} > bool on(pod) ${bar}`, 60)).toEqual([
      ['{pod="a"}', 0],
    ]);
  });

  it('group_left: many-to-one, copying labels from the one side', async () => {
    const perApp = `sum by (app) (${ALL})`;
    expect(await instantValues(src, `${ALL} / on(app) group_left ${perApp}`, 60)).toEqual([
      ['{app="bar", pod="a"}', 1],
      ['{app="foo", pod="a"}', 6 / 18],
      ['{app="foo", pod="b"}', 12 / 18],
    ]);
    const renamed = `label_replace(${perApp}, "team", "t-$1", "app", "(.*)")`;
    expect(await instantValues(src, `${ALL} * on(app) group_left(team) ${renamed}`, 60)).toEqual([
      ['{app="bar", pod="a", team="t-bar"}', 225],
      ['{app="foo", pod="a", team="t-foo"}', 108],
      ['{app="foo", pod="b", team="t-foo"}', 216],
    ]);
  });

  it('group_right: one-to-many, the left value for comparisons', async () => {
    const perApp = `sum by (app) (${ALL})`;
    expect(await instantValues(src, `${perApp} - on(app) group_right ${ALL}`, 60)).toEqual([
      ['{app="bar", pod="a"}', 0],
      ['{app="foo", pod="a"}', 12],
      ['{app="foo", pod="b"}', 6],
    ]);
    expect(await instantValues(src, `${perApp} > on(app) group_right ${ALL}`, 60)).toEqual([
      ['{app="foo", pod="a"}', 18],
      ['{app="foo", pod="b"}', 18],
    ]);
  });

  it('matching errors as Loki words them', async () => {
    await expect(instantValues(src, `${ALL} + on(app) ${C('{app="foo"}')}`, 60)).rejects.toThrow(
      'found duplicate series on the right hand-side;many-to-many matching not allowed: matching labels must be unique on one side',
    );
    await expect(
      instantValues(src, `${ALL} + on(pod) group_right sum by (app) (${ALL})`, 60),
    ).rejects.toThrow('found duplicate series on the left hand-side');
    await expect(instantValues(src, `${ALL} + on(app) sum by (app) (${ALL})`, 60)).rejects.toThrow(
      'multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)',
    );
    await expect(
      instantValues(
        src,
        `${ALL} + on(app) group_left sum by (app, x) (label_replace(${ALL}, "x", "1", "", ""))`,
        60,
      ),
    ).resolves.toHaveLength(3);
    await expect(
      instantValues(src, `sum without (pod) (${ALL}) + ignoring(pod) group_left ${ALL}`, 60),
    ).rejects.toThrow('found duplicate series on the right hand-side');
    await expect(
      instantValues(
        src,
        `label_replace(${ALL}, "pod", "", "", "") + on(app) group_left sum by (app) (${ALL})`,
        60,
      ),
    ).rejects.toThrow('multiple matches for labels: grouping labels must ensure unique matches');
  });
});

describe('set operators', () => {
  const foo = C('{app="foo"}');
  const podA = C('{pod="a"}');

  it('and keeps left samples with a match, unless those without one', async () => {
    expect(await instantValues(src, `${foo} and ${podA}`, 60)).toEqual([
      ['{app="foo", pod="a"}', 6],
    ]);
    expect(await instantValues(src, `${foo} unless ${podA}`, 60)).toEqual([
      ['{app="foo", pod="b"}', 12],
    ]);
    expect(await instantValues(src, `${podA} and on(pod) ${foo}`, 60)).toHaveLength(3);
    expect(await instantValues(src, `${podA} unless ignoring(app) ${foo}`, 60)).toEqual([]);
  });

  it('or adds right samples whose signature the left lacks; empty left gives the right', async () => {
    expect(await instantValues(src, `${foo} or ${podA}`, 60)).toEqual([
      ['{app="bar", pod="a"}', 15],
      ['{app="err", pod="a"}', 3],
      ['{app="foo", pod="a"}', 6],
      ['{app="foo", pod="b"}', 12],
    ]);
    expect(await instantValues(src, `${foo} or on(pod) ${podA}`, 60)).toHaveLength(2);
    expect(await instantValues(src, `sum(${C('{app="none"}')}) or vector(0)`, 60)).toEqual([
      ['{}', 0],
    ]);
  });
});
