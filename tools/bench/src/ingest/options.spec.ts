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

  it('pins the server to the CPUs given with --server-cpus, and refuses what is not a CPU list', () => {
    expect(parseOptions(['--server-cpus=0-1,3'])).toMatchObject({ serverCpus: '0-1,3' });
    expect(() => parseOptions(['--server-cpus=one'])).toThrow(
      '--server-cpus must be auto, all or a CPU list, got "one"',
    );
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

  it('measures no cluster unless asked; --cluster is one distributor and 3 ingesters at RF 3', () => {
    expect(parseOptions([])).toMatchObject({ cluster: false });
    expect(parseOptions(['--cluster'])).toMatchObject({
      cluster: true,
      replicationFactors: [3],
      ingesters: 3,
    });
  });

  it('measures each replication factor listed, in order, which implies --cluster', () => {
    expect(parseOptions(['--replication-factor=3,1'])).toMatchObject({
      cluster: true,
      replicationFactors: [3, 1],
    });
    expect(parseOptions(['--replication-factor=2', '--ingesters=2'])).toMatchObject({
      replicationFactors: [2],
      ingesters: 2,
    });
    // The defaults are not shared between parses.
    expect(parseOptions([]).replicationFactors).toEqual([3]);
  });

  it('refuses a replication factor above the ingesters, a repeated or a malformed one', () => {
    expect(() => parseOptions(['--replication-factor=3', '--ingesters=2'])).toThrow(
      /at least as many --ingesters/,
    );
    expect(() => parseOptions(['--cluster', '--ingesters=1'])).toThrow(OptionsError);
    expect(() => parseOptions(['--replication-factor=3,3'])).toThrow(/twice/);
    expect(() => parseOptions(['--replication-factor=0'])).toThrow(/positive integer/);
    expect(() => parseOptions(['--replication-factor=3,'])).toThrow(OptionsError);
    expect(() => parseOptions(['--cluster', '--url=http://127.0.0.1:3100'])).toThrow(
      /--cluster needs the bench to start/,
    );
  });
});
