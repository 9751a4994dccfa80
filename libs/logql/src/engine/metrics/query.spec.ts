import { describe, expect, it } from 'vitest';
import { SeriesLimitError } from './errors';
import { newQueryStats } from '../stats';
import {
  evaluateMetricQuery,
  instant,
  instantValues,
  metricExpr,
  range,
  rangeValues,
  repeat,
  TestSource,
} from './test-kit';

const src = new TestSource()
  .add('{app="foo", pod="a"}', repeat('x', 10, 10, 18))
  .add('{app="foo", pod="b"}', repeat('x', 5, 5, 36))
  .add('{app="bar", pod="c"}', repeat('x', 4, 4, 45));

describe('result shapes', () => {
  it('instant: a vector sorted by labels, stamped with the query time in ms', async () => {
    const r = await instant(src, 'count_over_time({app=~".+"}[1m])', 60.5);
    expect(r.type).toBe('vector');
    if (r.type !== 'vector') return;
    expect(r.samples.map((s) => [s.labels.map((l) => l.value).join(','), s.timestampMs])).toEqual([
      ['bar,c', 60500],
      ['foo,a', 60500],
      ['foo,b', 60500],
    ]);
  });

  it('range: matrix series sorted by labels with one point per step that has a value', async () => {
    const r = await range(src, 'count_over_time({app="foo"}[10s])', 0, 30, 10);
    expect(r).toEqual({
      type: 'matrix',
      series: [
        {
          labels: [
            { name: 'app', value: 'foo' },
            { name: 'pod', value: 'a' },
          ],
          points: [
            [10000, 1],
            [20000, 1],
            [30000, 1],
          ],
        },
        {
          labels: [
            { name: 'app', value: 'foo' },
            { name: 'pod', value: 'b' },
          ],
          points: [
            [10000, 2],
            [20000, 2],
            [30000, 2],
          ],
        },
      ],
    });
  });

  it('steps are start + k*step up to end, not aligned to the step', async () => {
    const r = await range(src, 'count_over_time({app="foo", pod="a"}[10s])', 3, 30, 7);
    expect(r.type === 'matrix' && r.series[0].points).toEqual([
      [10000, 1],
      [17000, 1],
      [24000, 1],
    ]);
  });

  it('a literal is a scalar (instant) or one {} series at every step (range)', async () => {
    expect(await instant(src, '2 * 3', 42)).toEqual({
      type: 'scalar',
      timestampMs: 42000,
      value: 6,
    });
    expect(await rangeValues(src, '-1.5', 0, 20, 10)).toEqual({ '{}': [-1.5, -1.5, -1.5] });
  });

  it('vector(): a {} sample at every step', async () => {
    expect(await instantValues(src, 'vector(3)', 10)).toEqual([['{}', 3]]);
    expect(await rangeValues(src, 'vector(1) + 1', 0, 20, 10)).toEqual({ '{}': [2, 2, 2] });
  });
});

describe('label_replace', () => {
  const q = (args: string) => `label_replace(count_over_time({app="foo"}[1m]), ${args})`;

  it('sets the destination from the expanded replacement on a full match', async () => {
    expect(await instantValues(src, q('"dst", "$1-$2", "pod", "(a)(.*)"'), 60)).toEqual([
      ['{app="foo", dst="a-", pod="a"}', 6],
      ['{app="foo", pod="b"}', 12],
    ]);
    expect(await instantValues(src, q('"app", "${x}z", "pod", "(?P<x>b)"'), 60)).toEqual([
      ['{app="bz", pod="b"}', 12],
      ['{app="foo", pod="a"}', 6],
    ]);
  });

  it('an empty result deletes the label; a partial match changes nothing', async () => {
    expect(await instantValues(src, q('"pod", "", "pod", "a"'), 60)).toEqual([
      ['{app="foo"}', 6],
      ['{app="foo", pod="b"}', 12],
    ]);
    expect(await instantValues(src, q('"pod", "z", "app", "fo"'), 60)).toEqual([
      ['{app="foo", pod="a"}', 6],
      ['{app="foo", pod="b"}', 12],
    ]);
  });
});

describe('limits', () => {
  it('max_query_series fails with Loki message, instant and range', async () => {
    const q = 'count_over_time({app=~".+"}[1m])';
    await expect(instant(src, q, 60, 2)).rejects.toThrow(
      'maximum of series (2) reached for a single query',
    );
    await expect(range(src, q, 0, 60, 10, 2)).rejects.toBeInstanceOf(SeriesLimitError);
    expect((await instantValues(src, q, 60)).length).toBe(3);
  });

  it('the series limit counts series across all steps of a range query', async () => {
    const s = new TestSource()
      .add('{app="x", n="1"}', repeat('x', 5, 100, 1))
      .add('{app="x", n="2"}', repeat('x', 25, 100, 1));
    await expect(range(s, 'count_over_time({app="x"}[10s])', 10, 30, 20, 1)).rejects.toThrow(
      SeriesLimitError,
    );
  });

  it('stops with an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      evaluateMetricQuery(
        metricExpr('count_over_time({app="foo"}[1m])'),
        {
          tenant: 'fake',
          startNs: 0n,
          endNs: 0n,
          stepNs: 0n,
          kind: 'instant',
          signal: controller.signal,
        },
        src,
        newQueryStats(),
      ),
    ).rejects.toThrow('context canceled');
  });
});
