import { parseLabels } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import {
  VolumeLimitError,
  accumulateVolumes,
  planVolume,
  topVolumes,
  volumeBuckets,
} from './volume';

const S = 1_000_000_000n;
const MS = 1_000_000n;

describe('volume aggregation', () => {
  const streams = [
    { labels: parseLabels('{app="a", env="prod", pod="1"}'), bytes: 10 },
    { labels: parseLabels('{app="a", env="prod", pod="2"}'), bytes: 5 },
    { labels: parseLabels('{app="b", env="dev", pod="3"}'), bytes: 7 },
  ];

  it('aggregates into the labels the query names', () => {
    const plan = planVolume([{ type: '=~', name: 'app', value: '.+' }], [], 'series');
    expect(topVolumes(accumulateVolumes(streams, plan, 100), 10)).toEqual([
      ['{app="a"}', 15],
      ['{app="b"}', 7],
    ]);
  });

  it('adds a matcher for each target label the query lacks', () => {
    const plan = planVolume([{ type: '=', name: 'app', value: 'a' }], ['env', 'app'], 'series');
    expect(plan.matchers).toContainEqual({ type: '=~', name: 'env', value: '.+' });
    expect([...plan.by].sort()).toEqual(['app', 'env']);
  });

  it('aggregates by label names with aggregateBy=labels, including all labels for {}', () => {
    const plan = planVolume([], [], 'labels');
    expect(topVolumes(accumulateVolumes(streams, plan, 100), 2)).toEqual([
      ['app', 22],
      ['env', 22],
    ]);
  });

  it('orders equal volumes by name and cuts at limit after that order', () => {
    const equal = [
      { labels: parseLabels('{app="c"}'), bytes: 5 },
      { labels: parseLabels('{app="a"}'), bytes: 5 },
      { labels: parseLabels('{app="d"}'), bytes: 9 },
      { labels: parseLabels('{app="b"}'), bytes: 5 },
    ];
    const plan = planVolume([{ type: '=~', name: 'app', value: '.+' }], [], 'series');
    const volumes = accumulateVolumes(equal, plan, 100);
    expect(topVolumes(volumes, 10)).toEqual([
      ['{app="d"}', 9],
      ['{app="a"}', 5],
      ['{app="b"}', 5],
      ['{app="c"}', 5],
    ]);
    expect(topVolumes(volumes, 3)).toEqual([
      ['{app="d"}', 9],
      ['{app="a"}', 5],
      ['{app="b"}', 5],
    ]);
  });

  it('refuses more names than volume_max_series with Loki’s 400 text', () => {
    const plan = planVolume([{ type: '=~', name: 'app', value: '.+' }], [], 'series');
    const err = (() => {
      try {
        accumulateVolumes(streams, plan, 1);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(VolumeLimitError);
    expect((err as VolumeLimitError).httpStatus).toBe(400);
    expect((err as Error).message).toBe(
      'the query hit the max number of series limit (limit: 1 series)',
    );
  });
});

describe('volumeBuckets', () => {
  it('aligns steps and ends each bucket 1ms before the next', () => {
    const b = volumeBuckets(90n * S, 300n * S, 100n * S);
    expect(b.map((x) => [x.fromNs / S, x.atNs])).toEqual([
      [90n, 100n * S - MS],
      [100n, 200n * S - MS],
      [200n, 300n * S],
    ]);
  });

  it('gives one bucket for step 0', () => {
    expect(volumeBuckets(5n * S, 10n * S, 0n)).toEqual([
      { fromNs: 5n * S, throughNs: 10n * S, atNs: 10n * S },
    ]);
  });
});
