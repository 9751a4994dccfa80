import { describe, expect, it } from 'vitest';
import { OptionsError, parseOptions } from './options';

describe('bench:ingest options', () => {
  it('keeps the default request shape: 200 streams, 10 streams × 100 lines per push', () => {
    expect(parseOptions([])).toMatchObject({
      shape: 'default',
      streams: 200,
      streamsPerBatch: 10,
      linesPerStream: 100,
      compareLoki: false,
      rounds: 1,
    });
  });

  it('sends 100 streams × 20 lines per push with --shape=agents, each client its own streams', () => {
    expect(parseOptions(['--shape=agents'])).toMatchObject({
      streamsPerBatch: 100,
      linesPerStream: 20,
      streams: 400,
    });
    expect(parseOptions(['--shape=agents', '--clients=2']).streams).toBe(200);
  });

  it('sends 1,000 streams × 2 lines per push with --shape=tiny', () => {
    expect(parseOptions(['--shape=tiny'])).toMatchObject({
      streamsPerBatch: 1000,
      linesPerStream: 2,
      streams: 4000,
    });
  });

  it('lets explicit stream options override a shape', () => {
    expect(parseOptions(['--lines-per-stream=5', '--shape=tiny', '--streams=9000'])).toMatchObject({
      streamsPerBatch: 1000,
      linesPerStream: 5,
      streams: 9000,
    });
  });

  it('compares with Loki on request, but not against a server it did not start', () => {
    expect(parseOptions(['--compare-loki', '--rounds=3'])).toMatchObject({
      compareLoki: true,
      rounds: 3,
    });
    expect(parseOptions(['--loki=/opt/loki']).lokiBinary).toBe('/opt/loki');
    expect(() => parseOptions(['--compare-loki', '--url=http://127.0.0.1:3100'])).toThrow(
      OptionsError,
    );
    expect(() => parseOptions(['--shape=huge'])).toThrow(/default, agents or tiny/);
  });
});
