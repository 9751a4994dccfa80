import { decodeLokiProtobuf, snappyUncompressSync } from '@logsvc/push';
import { labelsToString, type LogEntry } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { LogGenerator, parseOptions, prepareClientBodies, Prng } from '@logsvc/bench/testing';

// The benchmark's log generator and body preparation (tools/bench): the load the ingest
// benchmark and the durability test send is only meaningful if it is reproducible and real.

const START = Date.UTC(2026, 10, 22, 9, 0, 0);

function take(gen: LogGenerator, stream: number, n: number): LogEntry[] {
  const out: LogEntry[] = [];
  gen.entries(stream, n, out);
  return out;
}

describe('log generator', () => {
  it('is deterministic per seed, whatever order streams are asked for in', () => {
    const a = new LogGenerator({ seed: 5, streams: 6, startMs: START });
    const b = new LogGenerator({ seed: 5, streams: 6, startMs: START });
    const c = new LogGenerator({ seed: 6, streams: 6, startMs: START });
    take(b, 4, 10); // b asks for another stream first
    const lines = (g: LogGenerator) => take(g, 2, 20).map((e) => `${e.timestampNs} ${e.line}`);
    expect(lines(a)).toEqual(lines(b));
    expect(lines(c)).not.toEqual(lines(new LogGenerator({ seed: 5, streams: 6, startMs: START })));
    expect(a.streams.map((s) => labelsToString(s.labels))).toEqual(
      b.streams.map((s) => labelsToString(s.labels)),
    );
  });

  it('makes the requested streams over app × env × level with unique pods', () => {
    const gen = new LogGenerator({ seed: 1, streams: 120, apps: 5, envs: 2, startMs: START });
    const sets = new Set(gen.streams.map((s) => labelsToString(s.labels)));
    expect(sets.size).toBe(120);
    const values = (name: string) =>
      new Set(gen.streams.map((s) => s.labels.find((l) => l.name === name)?.value));
    expect(values('app').size).toBe(5);
    expect(values('env')).toEqual(new Set(['prod', 'staging']));
    expect(values('pod').size).toBe(120);
    const json = gen.streams.find((s) => s.format === 'json')!;
    expect(json.labels.map((l) => l.name)).toEqual(['app', 'env', 'level', 'pod']);
  });

  it('writes parseable nginx, JSON and logfmt lines with strictly increasing timestamps', () => {
    const gen = new LogGenerator({ seed: 9, streams: 3, startMs: START, spacingMs: 2 });
    const byFormat = new Map(gen.streams.map((s, i) => [s.format, take(gen, i, 200)]));
    const nginx =
      /^\d+\.\d+\.\d+\.\d+ - - \[\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "(GET|POST|PUT|DELETE|PATCH) \S+ HTTP\/1\.1" \d{3} \d+ "[^"]*" "[^"]*" rt=\d+\.\d{3}$/;
    for (const e of byFormat.get('nginx')!) expect(e.line.toString()).toMatch(nginx);
    for (const e of byFormat.get('json')!) {
      const o = JSON.parse(e.line.toString()) as Record<string, unknown>;
      expect(Object.keys(o)).toEqual(
        expect.arrayContaining(['ts', 'level', 'msg', 'status', 'trace_id']),
      );
    }
    for (const e of byFormat.get('logfmt')!)
      expect(e.line.toString()).toMatch(
        /^ts=\S+Z level=\w+ caller=\S+ msg="[^"]+" method=\w+ .* traceID=[0-9a-f]{16}$/,
      );
    for (const entries of byFormat.values()) {
      for (let i = 1; i < entries.length; i++)
        expect(entries[i].timestampNs > entries[i - 1].timestampNs).toBe(true);
      const spanMs = Number(entries[entries.length - 1].timestampNs - entries[0].timestampNs) / 1e6;
      expect(spanMs).toBeGreaterThan(199 * 2 * 0.5);
      expect(spanMs).toBeLessThan(199 * 2 * 1.5);
    }
  });

  it('draws pooled lines from the same formats and still advances timestamps', () => {
    const gen = new LogGenerator({ seed: 3, streams: 3, startMs: START, linePool: 50 });
    const entries = take(gen, 1, 120);
    expect(new Set(entries.map((e) => e.line.toString())).size).toBeLessThanOrEqual(50);
    expect(new Set(entries.map((e) => e.timestampNs)).size).toBe(120);
    expect(() => new LogGenerator({ seed: 3, streams: 0, startMs: START })).toThrow(RangeError);
  });

  it('keeps the PRNG within its ranges', () => {
    const rng = new Prng(11);
    for (let i = 0; i < 1000; i++) {
      const n = rng.range(3, 7);
      expect(n >= 3 && n <= 7).toBe(true);
    }
    expect(rng.hex(40)).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('ingest benchmark bodies', () => {
  it('give each client its own streams, in snappy protobuf that decodes to the generated lines', () => {
    const generator = { seed: 2, streams: 8, startMs: START, linePool: 100 };
    const plan = {
      generator,
      clients: 2,
      lineBytes: 50_000,
      streamsPerBatch: 3,
      linesPerStream: 10,
    };
    const bodies = prepareClientBodies({ ...plan, client: 1 });
    const total = bodies.reduce((n, b) => n + b.lineBytes, 0);
    expect(total).toBeGreaterThanOrEqual(50_000);
    const owned = new LogGenerator(generator).streams
      .filter((_, i) => i % 2 === 1)
      .map((s) => labelsToString(s.labels));
    const decoded = decodeLokiProtobuf(snappyUncompressSync(bodies[0].body, 10_000_000));
    expect(decoded.streams.map((s) => labelsToString(s.labels))).toEqual(owned.slice(0, 3));
    const bytes = decoded.streams.flatMap((s) => s.entries).reduce((n, e) => n + e.line.length, 0);
    expect(bytes).toBe(bodies[0].lineBytes);
    expect(bodies[0].lines).toBe(30);
  });

  it('rejects bad command-line options with a message naming the option', () => {
    expect(parseOptions(['--clients=8', '--streams=100', '--duration=5']).durationMs).toBe(5000);
    expect(() => parseOptions(['--clients=0'])).toThrow(
      '--clients must be a positive integer, got "0"',
    );
    expect(() => parseOptions(['--streams=2', '--clients=4'])).toThrow(
      '--streams (2) must be at least --clients (4)',
    );
    expect(() => parseOptions(['--bogus'])).toThrow('unknown option --bogus');
  });
});
