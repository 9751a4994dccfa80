import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIFTED_LIMITS } from '@logsvc/bench/testing';
import { queryRange } from '../support/loki-api';
import { type ServerProcess, startServer } from '../support/server';

const STREAMS = 50_000;
const STREAMS_PER_PUSH = 5_000;
/**
 * Several times what the final checkpoint of 50k streams takes now (0.7 s, 1.1-1.6 s on a busy
 * machine), below what it took when the checkpoint cut every head chunk (5 s on an idle one):
 * past it the process exits 1.
 */
const SHUTDOWN_BUDGET = '4s';
/** Replay of the checkpoint takes about 2 s. */
const REPLAY_BOUND_MS = 20_000;
const FLAGS = [
  ...LIFTED_LIMITS,
  '-ingester.wal-enabled=true',
  '-validation.max-entries-limit=100000',
  `-server.graceful-shutdown-timeout=${SHUTDOWN_BUDGET}`,
];

const line = (i: number) => `stream ${i} only entry`;

/** Segment and checkpoint files of the WAL directory, with their sizes. */
function walFiles(dataDir: string): { name: string; size: number }[] {
  const dir = join(dataDir, 'wal');
  return readdirSync(dir)
    .filter((name) => /^(checkpoint\.)?\d{8,}$/.test(name))
    .map((name) => ({ name, size: statSync(join(dir, name)).size }));
}

/**
 * A SIGTERM to an ingester holding hundreds of thousands of streams used to run out of its
 * shutdown time while writing the final checkpoint, and exit 1 without it.
 */
describe('SIGTERM with many streams in memory', () => {
  const started: ServerProcess[] = [];
  afterAll(async () => {
    // Newest first: the first process owns (and removes) the data directory.
    for (const p of started.reverse()) await p.dispose();
  });

  it('writes the final checkpoint, exits 0, and a restart replays every entry', async () => {
    const server = await startServer({ flags: FLAGS });
    started.push(server);
    const baseNs = BigInt(Date.now() - 60_000) * 1_000_000n;
    const ts = (i: number) => (baseNs + BigInt(i)).toString();
    for (let first = 0; first < STREAMS; first += STREAMS_PER_PUSH) {
      const streams = Array.from({ length: STREAMS_PER_PUSH }, (_, k) => {
        const i = first + k;
        return { stream: { app: 'many', id: String(i) }, values: [[ts(i), line(i)]] };
      });
      const res = await fetch(`${server.url}/loki/api/v1/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ streams }),
      });
      expect(res.status).toBe(204);
    }

    expect(await server.stop(60_000)).toBe(0);
    // Everything is in the checkpoint: the segment started with it holds nothing.
    const files = walFiles(server.dataDir);
    const checkpoint = files.find((f) => f.name.startsWith('checkpoint.'));
    expect(checkpoint?.size).toBeGreaterThan(STREAMS * 100);
    expect(files.filter((f) => !f.name.startsWith('checkpoint.') && f.size > 0)).toEqual([]);

    const restartedAt = Date.now();
    const replayed = await startServer({ flags: FLAGS, dataDir: server.dataDir });
    started.push(replayed);
    expect(Date.now() - restartedAt).toBeLessThan(REPLAY_BOUND_MS);
    const result = await queryRange(replayed.url, {
      query: '{app="many"}',
      start: baseNs,
      end: baseNs + BigInt(STREAMS),
      limit: 100_000,
      direction: 'forward',
    });
    const present = new Set(
      result.flatMap((s) => s.entries.map((e) => `${s.stream.id} ${e.ts} ${e.line}`)),
    );
    const missing = Array.from({ length: STREAMS }, (_, i) => `${i} ${ts(i)} ${line(i)}`).filter(
      (k) => !present.has(k),
    );
    expect({ entries: present.size, missing: missing.length }).toEqual({
      entries: STREAMS,
      missing: 0,
    });
    expect(await replayed.stop(60_000)).toBe(0);
  });
});
