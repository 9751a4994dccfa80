import { describe, expect, it } from 'vitest';
import { DEFAULT_LOKI_BINARY } from '../loki/loki-process';
import { OptionsError, parseOptions } from './options';

describe('bench:query options', () => {
  it('keeps the default data set, store-only phase and no Loki when nothing is given', () => {
    const o = parseOptions([]);
    expect(o).toMatchObject({
      data: 'default',
      phase: 'store',
      compareLoki: false,
      totalBytes: 300e6,
      streams: 200,
    });
  });

  it('defaults the mixed data set to 57 MB in 100 streams, in the ingesters and after a flush', () => {
    expect(parseOptions(['--data=mixed'])).toMatchObject({
      data: 'mixed',
      totalBytes: 57e6,
      streams: 100,
      phase: 'both',
    });
  });

  it('lets explicit options override the mixed defaults, in any order', () => {
    expect(
      parseOptions(['--mb=10', '--phase=ingester', '--data=mixed', '--streams=40']),
    ).toMatchObject({ data: 'mixed', totalBytes: 10e6, streams: 40, phase: 'ingester' });
  });

  it('turns the Loki comparison on with --compare-loki or --loki=PATH', () => {
    expect(parseOptions(['--compare-loki'])).toMatchObject({
      compareLoki: true,
      lokiBinary: DEFAULT_LOKI_BINARY,
    });
    expect(parseOptions(['--loki=/opt/loki'])).toMatchObject({
      compareLoki: true,
      lokiBinary: '/opt/loki',
    });
    expect(parseOptions(['--compare-loki=false']).compareLoki).toBe(false);
  });

  it('refuses unknown data sets and phases, and a mixed span beyond what [3h] covers', () => {
    expect(() => parseOptions(['--data=nginx'])).toThrow(OptionsError);
    expect(() => parseOptions(['--phase=memory'])).toThrow(/ingester, store or both/);
    expect(() => parseOptions(['--data=mixed', '--span=240'])).toThrow(/170 minutes/);
  });
});
