import { createHash } from 'node:crypto';
import type { LogEntry } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { LogGenerator } from './generator';

// The mixed data set of `bench:query --data=mixed`: every stream mixes nginx, JSON and logfmt
// lines, as agents ship a pod's output, and the JSON lines carry the numeric latency_ms the
// benchmark's `| json | latency_ms > 500` query filters on.

const START = Date.UTC(2026, 10, 22, 9, 0, 0);

function take(gen: LogGenerator, stream: number, n: number): LogEntry[] {
  const out: LogEntry[] = [];
  gen.entries(stream, n, out);
  return out;
}

type Kind = 'nginx' | 'json' | 'logfmt';

function kindOf(line: string): Kind {
  if (line.startsWith('{')) return 'json';
  if (line.startsWith('ts=')) return 'logfmt';
  expect(line).toMatch(/^\d+\.\d+\.\d+\.\d+ - - \[/);
  return 'nginx';
}

describe('mixed data set', () => {
  it('is the same for the same seed and differs for another', () => {
    const lines = (seed: number) =>
      take(new LogGenerator({ seed, streams: 5, startMs: START, mixedStreams: true }), 3, 50).map(
        (e) => `${e.timestampNs} ${e.line}`,
      );
    expect(lines(21)).toEqual(lines(21));
    expect(lines(21)).not.toEqual(lines(22));
  });

  it('mixes nginx, JSON and logfmt lines inside every stream, with the level in the line', () => {
    const gen = new LogGenerator({ seed: 4, streams: 6, startMs: START, mixedStreams: true });
    for (let i = 0; i < gen.streams.length; i++) {
      const kinds = new Map<Kind, number>();
      for (const e of take(gen, i, 300)) {
        const line = e.line.toString();
        const kind = kindOf(line);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        if (kind === 'logfmt') expect(line).toMatch(/ level=(debug|info|warn|error) /);
      }
      expect([...kinds.keys()].sort()).toEqual(['json', 'logfmt', 'nginx']);
      for (const n of kinds.values()) expect(n).toBeGreaterThan(60); // about a third each
      expect(gen.streams[i].labels.map((l) => l.name)).toEqual(['app', 'env', 'pod']);
    }
  });

  it('gives every JSON line a level and a numeric latency_ms, some of them above 500', () => {
    const gen = new LogGenerator({ seed: 8, streams: 2, startMs: START, mixedStreams: true });
    const json = [...take(gen, 0, 2000), ...take(gen, 1, 2000)]
      .map((e) => e.line.toString())
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(json.length).toBeGreaterThan(1000);
    for (const o of json) {
      expect(typeof o.latency_ms).toBe('number');
      expect(['debug', 'info', 'warn', 'error']).toContain(o.level);
      expect(o).not.toHaveProperty('duration_ms');
    }
    const slow = json.filter((o) => (o.latency_ms as number) > 500).length;
    expect(slow).toBeGreaterThan(0);
    expect(slow).toBeLessThan(json.length / 5); // a selective filter, not most lines
  });

  it('mixes the formats in pooled mode too, with strictly increasing timestamps', () => {
    const gen = new LogGenerator({
      seed: 3,
      streams: 4,
      startMs: START,
      mixedStreams: true,
      linePool: 200,
    });
    const entries = take(gen, 2, 600);
    expect(new Set(entries.map((e) => kindOf(e.line.toString())))).toEqual(
      new Set(['nginx', 'json', 'logfmt']),
    );
    for (let i = 1; i < entries.length; i++)
      expect(entries[i].timestampNs > entries[i - 1].timestampNs).toBe(true);
  });

  it('leaves the default data set byte for byte as it was', () => {
    // Digests of the default generator's output taken before the mixed set was added.
    const digest = (linePool: number | undefined) => {
      const gen = new LogGenerator({
        seed: 7,
        streams: 12,
        startMs: START,
        spacingMs: 3,
        linePool,
      });
      const h = createHash('sha256');
      for (let i = 0; i < 12; i++) {
        for (const e of take(gen, i, 40)) h.update(`${e.timestampNs} ${e.line}\n`);
        h.update(`${JSON.stringify(gen.streams[i].labels)}\n`);
      }
      return h.digest('hex');
    };
    expect(digest(undefined)).toBe(
      '7aada8d21abb39c6308082db62bab5af97b92721f8af6fd8c4ac9766e12fc221',
    );
    expect(digest(50)).toBe('8c94a32da665f2793dedb24b629ef5d976d63ca945f27e61df18c30c121135fe');
  });
});
