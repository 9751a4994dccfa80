import { describe, expect, it } from 'vitest';
import { DEFAULT_LOKI_BINARY } from '../loki/loki-process';
import { DEFAULT_VL_BINARY } from '../victorialogs/vl-process';
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

  it('warms each query up once per server unless told how many times', () => {
    expect(parseOptions([]).warmup).toBe(1);
    expect(parseOptions(['--warmup=15', '--runs=7'])).toMatchObject({ warmup: 15, runs: 7 });
    expect(() => parseOptions(['--warmup=0'])).toThrow(OptionsError);
  });

  it('pins the servers and interleaves streams across clients unless told otherwise', () => {
    expect(parseOptions([])).toMatchObject({ serverCpus: 'auto', interleave: true });
    expect(parseOptions(['--server-cpus=all', '--interleave=false'])).toMatchObject({
      serverCpus: 'all',
      interleave: false,
    });
    expect(() => parseOptions(['--server-cpus=one'])).toThrow(OptionsError);
  });

  it('turns the VictoriaLogs comparison on with --compare-victorialogs or --victorialogs=PATH', () => {
    expect(parseOptions(['--compare-victorialogs'])).toMatchObject({
      compareVictoriaLogs: true,
      vlBinary: DEFAULT_VL_BINARY,
    });
    expect(parseOptions(['--victorialogs=/opt/vl'])).toMatchObject({
      compareVictoriaLogs: true,
      vlBinary: '/opt/vl',
    });
    expect(() => parseOptions(['--frontend', '--compare-victorialogs'])).toThrow(OptionsError);
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

describe('bench:query --frontend options', () => {
  it('spreads the data over 6 h ending over 3 h ago and runs every mode once', () => {
    const o = parseOptions(['--frontend']);
    expect(o).toMatchObject({
      frontend: true,
      spanMs: 6 * 3_600_000,
      modes: ['main', 'whole', 'core', 'one', 'two', 'pair', 'warm'],
      rounds: 1,
      totalBytes: 300e6,
    });
    // Every 1 h split older than querier.query_ingesters_within (3 h).
    expect(o.endAgoMs).toBeGreaterThan(3 * 3_600_000);
    expect(parseOptions([]).endAgoMs).toBe(5 * 60_000);
  });

  it('keeps an explicit span, mode list and round count', () => {
    expect(
      parseOptions(['--span=120', '--frontend', '--modes=two,one', '--rounds=3']),
    ).toMatchObject({ spanMs: 120 * 60_000, modes: ['two', 'one'], rounds: 3 });
  });

  it('refuses unknown or repeated modes, and modes or rounds without --frontend', () => {
    expect(() => parseOptions(['--frontend', '--modes=one,three'])).toThrow(
      /main, whole, core, one, two, pair, warm/,
    );
    expect(() => parseOptions(['--frontend', '--modes=one,one'])).toThrow(/twice/);
    expect(() => parseOptions(['--rounds=2'])).toThrow(/need --frontend/);
    expect(() => parseOptions(['--frontend', '--rounds=0'])).toThrow(OptionsError);
  });

  it('refuses what the frontend benchmark does not measure', () => {
    expect(() => parseOptions(['--frontend', '--data=mixed'])).toThrow(/default only/);
    expect(() => parseOptions(['--frontend', '--compare-loki'])).toThrow(/Loki/);
    expect(() => parseOptions(['--frontend', '--phase=ingester'])).toThrow(/flushed chunks/);
  });
});
