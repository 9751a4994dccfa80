import { describe, expect, it } from 'vitest';
import { SchemaConfigError } from './errors';
import { SchemaPeriods, type PeriodConfig } from './schema-config';

const DAY = 86_400_000;

function period(from: string, prefix = 'index_', object_store = 'filesystem'): PeriodConfig {
  return { from, object_store, schema: 'v13', index: { prefix, period: DAY } };
}

describe('SchemaPeriods', () => {
  const sut = new SchemaPeriods({
    configs: [period('2020-01-01'), period('2024-03-01', 'idx_v2_', 's3')],
  });

  it('names the table by days since the epoch with the period prefix', () => {
    const t = Date.UTC(2020, 5, 1, 13);
    expect(sut.tableAt(t)).toEqual({
      name: `index_${Math.floor(t / DAY)}`,
      number: Math.floor(t / DAY),
      objectStore: 'filesystem',
      periodMs: DAY,
    });
  });

  it('switches entries at their from date', () => {
    const boundary = Date.UTC(2024, 2, 1);
    expect(sut.tableAt(boundary - 1).name).toBe(`index_${boundary / DAY - 1}`);
    expect(sut.tableAt(boundary)).toMatchObject({
      name: `idx_v2_${boundary / DAY}`,
      objectStore: 's3',
    });
    expect(sut.periodAt(boundary).object_store).toBe('s3');
  });

  it('lists every table of a multi-day range across an entry boundary', () => {
    const boundary = Date.UTC(2024, 2, 1);
    const day = boundary / DAY;
    expect(sut.tablesInRange(boundary - DAY - 5, boundary + DAY + 5).map((t) => t.name)).toEqual([
      `index_${day - 2}`,
      `index_${day - 1}`,
      `idx_v2_${day}`,
      `idx_v2_${day + 1}`,
    ]);
    expect(sut.tablesInRange(10, 5)).toEqual([]);
  });

  it('maps table names back to their entry', () => {
    expect(sut.tableByName('idx_v2_19800')).toMatchObject({ number: 19800, objectStore: 's3' });
    expect(sut.tableByName('index_19000')).toMatchObject({
      number: 19000,
      objectStore: 'filesystem',
    });
    expect(sut.tableByName('other_1')).toBeUndefined();
    expect(sut.tableByName('index_')).toBeUndefined();
  });

  it.each([
    [{ configs: [] }, /at least one entry/],
    [{ configs: [period('2020-13-01')] }, /not a date/],
    [{ configs: [period('2020-1-1')] }, /not a date/],
    [{ configs: [period('2021-01-01'), period('2020-01-01')] }, /must be after/],
    [{ configs: [period('2020-01-01', '../')] }, /index.prefix/],
    [
      { configs: [{ ...period('2020-01-01'), index: { prefix: 'i_', period: 7 * DAY } }] },
      /index.period/,
    ],
    [{ configs: [{ ...period('2020-01-01'), object_store: '' }] }, /object_store is required/],
  ])('rejects a bad config %#', (config, reason) => {
    expect(() => new SchemaPeriods(config)).toThrow(SchemaConfigError);
    expect(() => new SchemaPeriods(config)).toThrow(reason);
  });
});
