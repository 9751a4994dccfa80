import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIFTED_LIMITS } from '@logsvc/bench/testing';
import { pushOk, queryRange } from '../support/loki-api';
import { type ServerProcess, disposedAfterAll, eventually, startServer } from '../support/server';

const STREAMS = 200_000;
const LINES_PER_STREAM = 2;
const STREAMS_PER_PUSH = 10_000;
/**
 * The graceful shutdown period: twice Loki's default, as the checkpoint takes 2-3 s on an idle
 * 2-core machine but 15-30 s on one loaded by other work (load average 30-40).
 */
const GRACE_MS = 60_000;
/**
 * The restart reads the checkpoint only (5-8 s on an idle 2-core machine); generous, as it
 * takes several times that on one loaded by other work.
 */
const READY_BOUND_MS = 150_000;
const FLAGS = [
  ...LIFTED_LIMITS,
  '-log.level=info',
  '-ingester.wal-enabled=true',
  '-validation.max-entries-limit=1000000',
  `-server.graceful-shutdown-timeout=${GRACE_MS / 1000}s`,
];

const line = (i: number, k: number) => `stream ${i} line ${k} of a few`;

/** Segment and checkpoint files of the WAL directory, with their sizes. */
function walFiles(dataDir: string): { name: string; size: number }[] {
  const dir = join(dataDir, 'wal');
  return readdirSync(dir)
    .filter((name) => /^(checkpoint\.)?\d{8,}$/.test(name))
    .map((name) => ({ name, size: statSync(join(dir, name)).size }));
}

/** The JSON log lines of a server's stderr with this message. */
function logged(server: ServerProcess, msg: string): Record<string, unknown>[] {
  return server
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes(`"msg":"${msg}"`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The value of a metric without labels on the server's /metrics. */
async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

/**
 * A SIGTERM to an ingester holding 200k streams ran out of the graceful shutdown period while
 * writing the final checkpoint (and the next start replayed the WAL for 41 s).
 */
describe('SIGTERM with 200k streams in memory', () => {
  const started = disposedAfterAll();

  it('writes the whole final checkpoint within the grace period; the restart reads only it', async () => {
    const server = await startServer({ flags: FLAGS });
    started.push(server);
    const baseNs = BigInt(Date.now() - 60_000) * 1_000_000n;
    const ts = (i: number, k: number) => (baseNs + BigInt(i * LINES_PER_STREAM + k)).toString();
    for (let first = 0; first < STREAMS; first += STREAMS_PER_PUSH) {
      const streams = Array.from({ length: STREAMS_PER_PUSH }, (_, j) => {
        const i = first + j;
        return {
          stream: { app: 'many', id: String(i) },
          values: Array.from({ length: LINES_PER_STREAM }, (_, k) => [ts(i, k), line(i, k)]),
        };
      });
      await pushOk(server.url, streams);
    }

    const stoppedAt = Date.now();
    // 1 would mean main.ts's deadline cut the stop short.
    expect(await server.stop(GRACE_MS + 30_000)).toBe(0);
    const stopMs = Date.now() - stoppedAt;
    expect(stopMs).toBeLessThan(GRACE_MS);
    expect(logged(server, 'final WAL checkpoint failed')).toEqual([]);
    expect(logged(server, 'WAL checkpoint written')).toEqual([
      expect.objectContaining({ streams: STREAMS }),
    ]);
    // Everything is in the checkpoint: the segment started with it holds nothing.
    const files = walFiles(server.dataDir);
    expect(files.filter((f) => !f.name.startsWith('checkpoint.') && f.size > 0)).toEqual([]);

    const restartedAt = Date.now();
    const replayed = await startServer({
      flags: FLAGS,
      dataDir: server.dataDir,
      readyTimeoutMs: READY_BOUND_MS,
    });
    started.push(replayed);
    const readyMs = Date.now() - restartedAt;
    // /ready can answer before the parent has read the child's last stderr lines: wait for it.
    const replay = await eventually(async () => {
      const lines = logged(replayed, 'WAL replay complete');
      return lines.length > 0 ? lines : undefined;
    }, 'the replay log line');
    expect(replay).toEqual([expect.objectContaining({ checkpointStreams: STREAMS, records: 0 })]);
    console.log(`200k streams: SIGTERM to exit ${stopMs} ms, restart to /ready ${readyMs} ms`);

    // Every stream is back, and a sample of them (every 1000th) holds exactly its lines.
    expect(await metric(replayed.url, 'loki_ingester_memory_streams')).toBe(STREAMS);
    const sample = Array.from({ length: STREAMS / 1000 }, (_, n) => n * 1000);
    const result = await queryRange(replayed.url, {
      query: `{app="many", id=~"${sample.join('|')}"}`,
      start: baseNs,
      end: baseNs + BigInt(STREAMS * LINES_PER_STREAM),
      limit: 10_000,
      direction: 'forward',
    });
    const got = result.flatMap((s) => s.entries.map((e) => `${s.stream.id} ${e.ts} ${e.line}`));
    const want = sample.flatMap((i) =>
      Array.from({ length: LINES_PER_STREAM }, (_, k) => `${i} ${ts(i, k)} ${line(i, k)}`),
    );
    expect(got.sort()).toEqual(want.sort());
    expect(await replayed.stop(GRACE_MS + 30_000)).toBe(0);
  }, 420_000);
});
