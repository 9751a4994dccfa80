import { labelsFromRecord, matchesLabels, type Matcher } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { IndexTable } from './index-table';

const records: Record<string, string>[] = [
  { app: 'api', env: 'prod' },
  { app: 'api', env: 'dev' },
  { app: 'web', env: 'prod', team: 'a' },
  { app: 'web-api', team: '' },
  { app: 'db', team: 'b' },
  { job: 'x' },
];
const table = new IndexTable(
  'k',
  records.map((r, i) => ({
    labels: labelsFromRecord(r).filter((p) => p.value !== ''),
    fingerprint: i.toString(16).padStart(16, '0'),
    chunks: [],
  })),
);

function m(type: Matcher['type'], name: string, value: string): Matcher {
  return { type, name, value };
}

function sel(...matchers: Matcher[]): number[] {
  return table.select(matchers);
}

describe('IndexTable.select', () => {
  it('selects by equality and inequality', () => {
    expect(sel(m('=', 'app', 'api'))).toEqual([0, 1]);
    expect(sel(m('=', 'app', 'api'), m('!=', 'env', 'dev'))).toEqual([0]);
    expect(sel(m('!=', 'app', 'api'))).toEqual([2, 3, 4, 5]);
  });

  it('treats a missing label as the empty value', () => {
    expect(sel(m('=', 'team', ''))).toEqual([0, 1, 3, 5]);
    expect(sel(m('!=', 'team', ''))).toEqual([2, 4]);
    expect(sel(m('=~', 'env', 'prod|'))).toEqual([0, 2, 3, 4, 5]);
    expect(sel(m('!~', 'env', '.+'))).toEqual([3, 4, 5]);
  });

  it('anchors regexes at both ends', () => {
    expect(sel(m('=~', 'app', 'api'))).toEqual([0, 1]);
    expect(sel(m('=~', 'app', '.*api'))).toEqual([0, 1, 3]);
    expect(sel(m('=~', 'app', 'web|api'))).toEqual([0, 1, 2]);
    expect(sel(m('!~', 'app', 'web.*'))).toEqual([0, 1, 4, 5]);
  });

  it('selects everything for no matchers and nothing for an unknown name', () => {
    expect(sel()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(sel(m('=', 'nope', 'x'))).toEqual([]);
  });

  it('agrees with matchesLabels on every combination of a matcher grid', () => {
    const grid: Matcher[] = [];
    for (const type of ['=', '!=', '=~', '!~'] as const) {
      for (const name of ['app', 'team', 'absent']) {
        for (const value of ['', 'api', 'a', '.*', '.+', 'w.*|db']) grid.push(m(type, name, value));
      }
    }
    for (const a of grid) {
      for (const b of grid) {
        const expected = table.series.flatMap((s, i) =>
          matchesLabels([a, b], s.labels) ? [i] : [],
        );
        expect(table.select([a, b]), `${JSON.stringify([a, b])}`).toEqual(expected);
      }
    }
  });
});
