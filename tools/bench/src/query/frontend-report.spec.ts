import { describe, expect, it } from 'vitest';
import type { FrontendModeName } from './frontend-modes';
import {
  type FrontendBenchResult,
  formatFrontendReport,
  frontendJson,
  type ModeRun,
  speedUpsOfTwo,
} from './frontend-report';
import { frontendCounters } from './frontend-stats';
import type { QuerySpec } from './queries';
import type { QueryRun } from './run-query';

const spec: QuerySpec = {
  name: 'sum by level rate',
  query: 'sum by (level) (rate({env=~".+"}[1m]))',
  startNs: 0n,
  endNs: 1n,
  stepSeconds: 60,
};

const counters = (found: number, requested: number) => ({
  splits: 7,
  shards: 28,
  subqueries: found === requested && requested > 0 ? 1 : 28,
  cacheEntriesRequested: requested,
  cacheEntriesFound: found,
  cacheEntriesStored: 0,
  chunksDownloaded: requested > 0 && found === requested ? 0 : 1400,
  compressedBytes: requested > 0 && found === requested ? 0 : 210e6,
});

/** Runs of `ms` each, having processed 300 MB with `cpu` CPU seconds each. */
const runs = (ms: number[], cpu: number, bytes = 300e6, found = 0, requested = 0): QueryRun[] =>
  ms.map((wallMs) => ({
    wallMs,
    bytesProcessed: bytes,
    linesProcessed: 1.5e6,
    results: 5,
    valueSum: 42,
    cpuSeconds: cpu,
    frontend: counters(found, requested),
  }));

function modeRun(mode: FrontendModeName, round: number, r: QueryRun[], cold?: QueryRun): ModeRun {
  return { mode, round, loadAverage: 2.5, queries: [{ spec, runs: r, ...(cold ? { cold } : {}) }] };
}

function result(...modeRuns: ModeRun[]): FrontendBenchResult {
  return {
    ingestedMB: 300,
    ingestedLines: 1_526_000,
    streams: 200,
    spanMinutes: 360,
    endMinutesAgo: 190,
    cpus: 2,
    runs: modeRuns,
  };
}

const row = (text: string, label: string) =>
  text.split('\n').find((l) => l.startsWith(label.padEnd(38)))!;

describe('bench:query --frontend report', () => {
  const cold = runs([4000], 4, 300e6, 0, 7)[0];
  const oneRound = result(
    modeRun('core', 1, runs([7400, 7500, 7600], 5.7)),
    modeRun('one', 1, runs([5800, 6000, 6400], 6)),
    modeRun('two', 1, runs([3100, 3000, 2900], 5.4)),
    modeRun('warm', 1, runs([40, 50, 60], 0.03, 0, 7, 7), cold),
  );

  it('prints each mode median, MB/s of bytes processed, CPU, the work counters and cache hits', () => {
    const text = formatFrontendReport(oneRound);
    // median 6000 ms, best 5800, 300 MB / 6 s = 50 MB/s, 6 CPU s over 6 s = 1.00 core
    expect(row(text, 'one query worker')).toMatch(
      /\s6000\s+5800\s+50\.0\s+6\.00\s+1\.00\s+7\/28\/28\s+-\s+1400\s+210\s+-$/,
    );
    expect(row(text, 'two query workers')).toMatch(/\s3000\s+2900\s+100\.0\s+5\.40\s+1\.80\s/);
    // Warm: no MB/s (nothing processed), no cores (too short for /proc's ticks), the hits and
    // the cold run's latency.
    expect(row(text, 'two query workers, results cache warm')).toMatch(
      /\s50\s+40\s+-\s+0\.03\s+-\s+7\/28\/1\s+7\/7\s+0\s+0\s+4000$/,
    );
    expect(text).toContain('speed-up: two workers / one 2.00×, two workers / one on one CPU 2.50×');
    expect(row(text, 'one query worker, server on one CPU')).toMatch(/\s7500\s+7400\s+40\.0\s/);
    expect(text).toContain('warm cache / two workers 60.00×');
    expect(text).toContain('one worker / event loop -');
    expect(text).not.toContain('all rounds');
  });

  it('gives the ceiling two workers have, from two whole queries run at once', () => {
    const text = formatFrontendReport(
      result(
        modeRun('whole', 1, runs([600, 610, 590], 0.6)),
        modeRun('two', 1, runs([400, 410, 390], 0.7)),
        modeRun('pair', 1, runs([720, 700, 730, 740], 0.7)),
      ),
    );
    expect(row(text, 'two whole queries at once, 2 workers')).toMatch(/\s4\s+725\s+700\s/);
    expect(text).toContain(
      'two whole queries at once: each 1.21× the whole query alone on one CPU, ' +
        'so two workers can reach at most 1.66× of it',
    );
    expect(formatFrontendReport(oneRound)).not.toContain('two whole queries at once:');
  });

  it('sums up several rounds: median of round medians and every round speed-up', () => {
    const two = result(
      ...oneRound.runs,
      modeRun('one', 2, runs([8000], 6)),
      modeRun('two', 2, runs([5000], 5.4)),
    );
    expect(speedUpsOfTwo(two, spec.name, 'one')).toEqual([2, 1.6]);
    expect(speedUpsOfTwo(two, spec.name, 'core')).toEqual([2.5]);
    const text = formatFrontendReport(two);
    expect(text).toContain('round 2 (load average at each start: one 2.5, two 2.5)');
    expect(text).toContain(
      'sum by level rate: core 7500, one 7000, two 4000, warm 50; two/one by round 2.00× 1.60×; ' +
        'two/core by round 2.50×',
    );
  });

  it('gives the speed-ups and every run in the JSON', () => {
    const json = frontendJson(oneRound) as {
      rounds: Array<{
        queries: Array<{
          speedUpTwoOverOne: number | null;
          speedUpTwoOverOneCpu: number | null;
          speedUpOneOverEventLoop: null;
        }>;
        modes: Array<{
          mode: string;
          flags: string[];
          oneCpu: boolean;
          queries: Array<{ cold?: QueryRun }>;
        }>;
      }>;
    };
    expect(json.rounds[0].queries[0].speedUpTwoOverOne).toBe(2);
    expect(json.rounds[0].queries[0].speedUpTwoOverOneCpu).toBe(2.5);
    expect(json.rounds[0].modes.find((m) => m.mode === 'core')?.oneCpu).toBe(true);
    expect(json.rounds[0].queries[0].speedUpOneOverEventLoop).toBeNull();
    const warm = json.rounds[0].modes.find((m) => m.mode === 'warm')!;
    expect(warm.flags).toContain('-querier.cache-results=true');
    expect(warm.queries[0].cold?.wallMs).toBe(4000);
  });
});

describe('frontendCounters', () => {
  it('reads splits, shards, sub-queries and the results cache counters of data.stats', () => {
    expect(
      frontendCounters({
        summary: { splits: 7, shards: 28, subqueries: 28, totalBytesProcessed: 1 },
        cache: { result: { entriesRequested: 7, entriesFound: 5, entriesStored: 2 } },
        querier: { store: { totalChunksDownloaded: 600, chunk: { compressedBytes: 9e7 } } },
      }),
    ).toEqual({
      splits: 7,
      shards: 28,
      subqueries: 28,
      cacheEntriesRequested: 7,
      cacheEntriesFound: 5,
      cacheEntriesStored: 2,
      chunksDownloaded: 600,
      compressedBytes: 9e7,
    });
  });

  it('reads 0 for what a server left out (a querier asked directly, cache off)', () => {
    expect(frontendCounters({ summary: { splits: 'x' } })).toEqual({
      splits: 0,
      shards: 0,
      subqueries: 0,
      cacheEntriesRequested: 0,
      cacheEntriesFound: 0,
      cacheEntriesStored: 0,
      chunksDownloaded: 0,
      compressedBytes: 0,
    });
    expect(frontendCounters(undefined).subqueries).toBe(0);
  });
});
