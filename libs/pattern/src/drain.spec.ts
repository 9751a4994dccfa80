import { describe, expect, it } from 'vitest';
import { logfmtLine, Prng, TimeFormatter } from '@logsvc/bench/testing';
import { Drain, type DrainCounters } from './drain';
import { DEFAULT_DRAIN_CONFIG } from './drain-config';
import { detectLogFormat } from './log-format';
import { deduplicatePlaceholders } from './tokenizers/placeholders';
import { encodeLogfmt } from './tokenizers/logfmt-encode';

const T0 = 1_700_000_000_000;

function patternsOf(drain: Drain): string[] {
  return drain
    .allClusters()
    .map((c) => c.pattern())
    .sort();
}

function train(drain: Drain, lines: readonly string[]): void {
  lines.forEach((line, i) => drain.train(Buffer.from(line), T0 + i * 100));
}

/** An nginx access line whose request and agent are fixed; address, time, sizes vary. */
function nginxShape(rng: Prng, time: TimeFormatter, ms: number, request: string): string {
  const ip = `10.${rng.int(256)}.${rng.int(256)}.${rng.range(1, 254)}`;
  return (
    `${ip} - - [${time.nginx(ms)}] "${request} HTTP/1.1" ${rng.pick([200, 404, 500])} ` +
    `${rng.range(100, 50_000)} "-" "curl/8.8.0" rt=${(rng.range(1, 900) / 1000).toFixed(3)}`
  );
}

describe('Drain', () => {
  it('turns the varying parts of one nginx line shape into <_>', () => {
    const rng = new Prng(1);
    const time = new TimeFormatter();
    const lines = Array.from({ length: 200 }, (_, i) =>
      nginxShape(rng, time, T0 + i * 1000, 'GET /healthz'),
    );
    const drain = new Drain(detectLogFormat(lines[0]));
    train(drain, lines);
    expect(patternsOf(drain)).toEqual([
      '<_> - - [<_> +0000] "GET /healthz HTTP/1.1" <_> <_> "-" "curl/8.8.0" rt=<_>',
    ]);
  });

  it('keeps different line shapes apart', () => {
    const rng = new Prng(2);
    const time = new TimeFormatter();
    const lines = Array.from({ length: 300 }, (_, i) =>
      i % 2 === 0
        ? nginxShape(rng, time, T0 + i * 1000, 'GET /healthz')
        : `worker ${rng.range(1, 9)} finished job ${rng.hex(8)} in ${rng.range(1, 99)}ms`,
    );
    const drain = new Drain('unknown');
    train(drain, lines);
    expect(patternsOf(drain)).toEqual([
      '<_> - - [<_> +0000] "GET /healthz HTTP/1.1" <_> <_> "-" "curl/8.8.0" rt=<_>',
      'worker <_> finished job <_> in <_>',
    ]);
  });

  it('reads logfmt lines by key: timestamps and trace IDs are <_> from the first line', () => {
    const rng = new Prng(3);
    const time = new TimeFormatter();
    const first = logfmtLine(rng, time, T0, 'info');
    expect(detectLogFormat(first)).toBe('logfmt');
    const drain = new Drain('logfmt');
    drain.train(Buffer.from(first), T0);
    const [pattern] = patternsOf(drain);
    expect(pattern).toMatch(/^ts=<_> level=info caller=\S+ msg="[^"]+" method=/);
    expect(pattern).toMatch(/ traceID=<_>$/);
    // Lines that differ only in values of the same keys join that pattern.
    const lines = Array.from(
      { length: 50 },
      (_, i) =>
        `ts=${time.iso(T0 + i)} level=info msg="cache warmed" entries=${rng.range(1, 1e6)} ` +
        `took=${rng.range(1, 99)}ms traceID=${rng.hex(16)}`,
    );
    const cache = new Drain('logfmt');
    train(cache, lines);
    expect(patternsOf(cache)).toEqual([
      'ts=<_> level=info msg="cache warmed" entries=<_> took=<_> traceID=<_>',
    ]);
  });

  it('reads the message field of JSON lines', () => {
    const rng = new Prng(4);
    const lines = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({
        ts: new Date(T0 + i).toISOString(),
        level: 'info',
        msg: `user ${rng.range(1, 9999)} logged in from 10.0.0.${rng.range(1, 254)}`,
        trace_id: rng.hex(32),
      }),
    );
    expect(detectLogFormat(lines[0])).toBe('json');
    const drain = new Drain('json');
    train(drain, lines);
    expect(patternsOf(drain)).toEqual(['<_>user <_> logged in from <_>']);
    // A JSON line without a message field is not used.
    expect(drain.train(Buffer.from('{"level":"info","count":3}'), T0)).toBeUndefined();
  });

  it('does not use lines with fewer than 4 tokens', () => {
    const drain = new Drain('unknown');
    expect(drain.train(Buffer.from('ok done'), T0)).toBeUndefined();
    expect(drain.allClusters()).toHaveLength(0);
  });

  it('keeps at most max_clusters patterns per stream, and stops a stream that churns', () => {
    const rng = new Prng(5);
    const config = { ...DEFAULT_DRAIN_CONFIG, maxClusters: 10 };
    const drain = new Drain('unknown', config);
    // Every line its own shape: distinct token counts never share a pattern.
    for (let i = 0; i < 1000; i++) {
      const words = Array.from({ length: 4 + (i % 60) }, () => rng.pick(['alpha', 'beta']));
      drain.train(Buffer.from(words.join(' ') + ` #${i}`), T0 + i);
    }
    expect(drain.clusterCount).toBeLessThanOrEqual(10);
    // More than a quarter of new patterns evicted: training stops for the stream.
    expect(drain.train(Buffer.from('a brand new line shape here'), T0)).toBeUndefined();
  });
});

describe("Drain counters (Loki's pattern ingester metrics)", () => {
  const counting = () => {
    const seen = { detected: 0, evicted: 0, pruned: 0, skipped: [] as string[] };
    const counters: DrainCounters = {
      detected: () => seen.detected++,
      evicted: (pruned) => (pruned ? seen.pruned++ : seen.evicted++),
      skipped: (reason) => seen.skipped.push(reason),
    };
    return { seen, counters };
  };

  it('counts new patterns, LRU evictions and prunes apart, and skipped lines by reason', () => {
    const { seen, counters } = counting();
    const config = { ...DEFAULT_DRAIN_CONFIG, maxClusters: 2, maxAllowedLineLength: 200 };
    const drain = new Drain('unknown', config, counters);
    drain.train(Buffer.from('worker 1 finished job 17'), T0);
    drain.train(Buffer.from('worker 2 finished job 18'), T0); // the same pattern
    drain.train(Buffer.from('disk 1 full on host a'), T0);
    drain.train(Buffer.from('user bob logged in from 10.0.0.1 today'), T0); // evicts the oldest
    expect(seen).toMatchObject({ detected: 3, evicted: 1, pruned: 0 });
    drain.delete(drain.allClusters()[0]); // its samples expired
    expect(seen).toMatchObject({ evicted: 1, pruned: 1 });
    drain.train(Buffer.from('ok done'), T0);
    drain.train(Buffer.from(Array(90).fill('a').join(' ')), T0);
    drain.train(Buffer.from('x'.repeat(201)), T0);
    expect(seen.skipped).toEqual(['too_few_tokens', 'too_many_tokens', 'line_too_long']);
  });

  it('does not count malformed lines, as Loki', () => {
    const { seen, counters } = counting();
    const drain = new Drain('json', DEFAULT_DRAIN_CONFIG, counters);
    drain.train(Buffer.from('{"level":"info","count":3}'), T0);
    drain.train(Buffer.from(`{"msg":"${'x'.repeat(4000)}"}`), T0); // Loki does not count it
    expect(seen).toEqual({ detected: 0, evicted: 0, pruned: 0, skipped: [] });
  });
});

describe('pattern text', () => {
  it('collapses runs of placeholders as Loki does', () => {
    expect(deduplicatePlaceholders('a <_><_><_> b')).toBe('a <_> b');
    expect(deduplicatePlaceholders('<_><_>x<_>')).toBe('<_>x<_>');
    expect(deduplicatePlaceholders('no placeholder')).toBe('no placeholder');
  });

  it('encodes logfmt values as go-logfmt does', () => {
    expect(encodeLogfmt(['msg', 'two words', 'ok', 'yes', 'q', 'say "hi"', 'empty', ''])).toBe(
      'msg="two words" ok=yes q="say \\"hi\\"" empty=',
    );
    expect(encodeLogfmt(['k'])).toBe('k=');
    expect(encodeLogfmt(['= ', 'v'])).toBe('');
  });
});
