import { labelsFromRecord, labelsToString, type LogEntry, type PushStream } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { PatternIngester, RETAIN_SAMPLES_MS } from './pattern-ingester';
import { MIN_PATTERN_LINES, mergePatternSeries, prunePatterns } from './pattern-merge';
import { PatternQuerier } from './pattern-querier';
import { roundToMilliseconds } from './pattern-query';

const T0 = 1_700_000_010_000; // a multiple of 30 s

function stream(app: string, lines: [ms: number, line: string][]): PushStream {
  const labels = labelsFromRecord({ app });
  const entries: LogEntry[] = lines.map(([ms, line]) => ({
    timestampNs: BigInt(ms) * 1_000_000n,
    line: Buffer.from(line),
    structuredMetadata: [],
  }));
  return { labels, entries, labelsText: labelsToString(labels) };
}

const job = (i: number) => `worker ${i % 7} finished job ${1000 + i} in ${i % 90}ms`;
const JOB = 'worker <_> finished job <_> in <_>';

describe('PatternIngester', () => {
  it('counts lines per 10 s, and per step when asked', async () => {
    const sut = new PatternIngester({ now: () => T0 });
    // 3 lines in [T0, T0+10s), 2 in the next interval, 1 a minute later.
    const at = [0, 1_000, 9_999, 10_000, 19_000, 60_000];
    await sut.push('t', [
      stream(
        'api',
        at.map((ms, i) => [T0 + ms, job(i)]),
      ),
    ]);
    const all = { matchers: [], fromMs: T0, throughMs: T0 + 3_600_000 };
    expect(await sut.query('t', { ...all, stepMs: 10_000 })).toEqual([
      {
        pattern: JOB,
        samples: [
          { timestampMs: T0, value: 3 },
          { timestampMs: T0 + 10_000, value: 2 },
          { timestampMs: T0 + 60_000, value: 1 },
        ],
      },
    ]);
    // A 30 s step aligned to the epoch, with the empty step in between.
    const [series] = await sut.query('t', { ...all, stepMs: 30_000 });
    expect(series.samples).toEqual([
      { timestampMs: T0, value: 5 },
      { timestampMs: T0 + 30_000, value: 0 },
      { timestampMs: T0 + 60_000, value: 1 },
    ]);
    // A step below 10 s counts per 10 s; the end is exclusive.
    const [early] = await sut.query('t', { ...all, throughMs: T0 + 10_000, stepMs: 1_000 });
    expect(early.samples).toEqual([{ timestampMs: T0, value: 3 }]);
  });

  it('answers only the streams the matchers select, summing identical patterns', async () => {
    const sut = new PatternIngester();
    await sut.push('t', [
      stream('a', [
        [T0, job(1)],
        [T0 + 1, job(2)],
      ]),
      stream('b', [
        [T0 + 2, job(3)],
        [T0 + 3, job(4)],
      ]),
      stream('c', [[T0 + 2, 'something else entirely here now']]),
    ]);
    await sut.push('other', [stream('a', [[T0, job(3)]])]);
    const q = { fromMs: T0, throughMs: T0 + 60_000, stepMs: 10_000 };
    const ab = await sut.query('t', {
      ...q,
      matchers: [{ type: '=~', name: 'app', value: 'a|b' }],
    });
    expect(ab).toEqual([{ pattern: JOB, samples: [{ timestampMs: T0, value: 4 }] }]);
  });

  it('drops samples older than 3 hours, then the patterns and streams left empty', async () => {
    let now = T0;
    const sut = new PatternIngester({ now: () => now });
    await sut.push('t', [stream('a', [[T0, job(1)]])]);
    await sut.push('t', [stream('b', [[T0 + 2 * 3_600_000, job(2)]])]);
    now = T0 + RETAIN_SAMPLES_MS + 20_000;
    sut.sweep();
    expect(sut.streamCount).toBe(1);
    expect(sut.stream('t', '{app="a"}')).toBeUndefined();
    expect(sut.stream('t', '{app="b"}')?.patternCount).toBe(1);
  });

  it('holds a bounded number of samples per stream however long it runs', async () => {
    let now = T0;
    const sut = new PatternIngester({ now: () => now });
    // 12 hours of one line per second, swept every minute as the ingester does.
    for (let m = 0; m < 12 * 60; m++) {
      const lines: [number, string][] = [];
      for (let s = 0; s < 60; s++) lines.push([T0 + m * 60_000 + s * 1000, job(s)]);
      await sut.push('t', [stream('a', lines)]);
      now = T0 + (m + 1) * 60_000;
      sut.sweep();
    }
    // 3 h of 10 s samples plus the hour-long chunk that straddles the cut.
    expect(sut.stream('t', '{app="a"}')?.sampleCount()).toBeLessThanOrEqual(4 * 360);
  });

  it('skips entries older than the last one counted in the stream', async () => {
    const sut = new PatternIngester();
    await sut.push('t', [stream('a', [[T0 + 20_000, job(1)]])]);
    await sut.push('t', [stream('a', [[T0, job(2)]])]);
    const [series] = await sut.query('t', {
      matchers: [],
      fromMs: T0,
      throughMs: T0 + 60_000,
      stepMs: 10_000,
    });
    expect(series.samples).toEqual([{ timestampMs: T0 + 20_000, value: 1 }]);
  });
});

describe('PatternQuerier', () => {
  it('sums patterns across ingesters and keeps those with 30 lines or more, most first', async () => {
    const one = new PatternIngester();
    const two = new PatternIngester();
    const lines = (n: number, line: (i: number) => string): [number, string][] =>
      Array.from({ length: n }, (_, i) => [T0 + i * 1000, line(i)]);
    await one.push('t', [stream('a', lines(20, job))]);
    await two.push('t', [stream('b', lines(20, job))]);
    await two.push('t', [
      stream(
        'c',
        lines(29, (i) => `disk ${i} is full on host ${i}`),
      ),
    ]);
    await two.push('t', [
      stream(
        'd',
        lines(45, (i) => `cache miss for key ${i} after ${i}`),
      ),
    ]);
    const sut = new PatternQuerier(() => [one, two]);
    const got = await sut.patterns('t', {
      matchers: [],
      fromMs: T0,
      throughMs: T0 + 3_600_000,
      stepMs: 60_000,
    });
    expect(got.map((s) => [s.pattern, s.samples.reduce((n, p) => n + p.value, 0)])).toEqual([
      ['cache miss for key <_> after <_>', 45],
      [JOB, 40],
    ]);
    expect(MIN_PATTERN_LINES).toBe(30);
  });

  it('fails when an ingester fails', async () => {
    const broken = { push: async () => {}, query: async () => Promise.reject(new Error('down')) };
    const sut = new PatternQuerier(() => [new PatternIngester(), broken]);
    const q = { matchers: [], fromMs: 0, throughMs: 1, stepMs: 10_000 };
    await expect(sut.patterns('t', q)).rejects.toThrow('down');
  });

  it('merges and prunes plain series', () => {
    const merged = mergePatternSeries([
      [{ pattern: 'p', samples: [{ timestampMs: 20, value: 10 }] }],
      [
        {
          pattern: 'p',
          samples: [
            { timestampMs: 10, value: 15 },
            { timestampMs: 20, value: 5 },
          ],
        },
      ],
    ]);
    expect(merged).toEqual([
      {
        pattern: 'p',
        samples: [
          { timestampMs: 10, value: 15 },
          { timestampMs: 20, value: 15 },
        ],
      },
    ]);
    expect(prunePatterns(merged)).toEqual(merged);
  });

  it('rounds the range to milliseconds outward', () => {
    expect(roundToMilliseconds(1_500_000n, 2_000_001n)).toEqual([1, 3]);
  });
});
