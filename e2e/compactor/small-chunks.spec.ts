import { join } from 'node:path';
import { FilesystemObjectClient } from '@logsvc/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, eventually, startServer } from '../support/server';

const STREAMS = ['api', 'web'];
const FLUSHES = 4;
const PER_FLUSH = 500;

interface Answer {
  data: {
    result: unknown[];
    stats: { querier: { store: { chunk: { decompressedLines: number } } } };
  };
}

async function query(url: string, q: string, startNs: bigint, endNs: bigint): Promise<Answer> {
  const params = new URLSearchParams({
    query: q,
    start: String(startNs),
    end: String(endNs),
    step: '60',
    limit: '5000',
    direction: 'forward',
  });
  const res = await fetch(`${url}/loki/api/v1/query_range?${params}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))) {
    sum += Number(m[1]);
  }
  return sum;
}

const QUERIES = [
  '{app=~".+"}',
  '{app="api"} | trace_id="trace-api-1-123"',
  '{app=~".+"} | detected_level="warn"',
  'sum by (app) (count_over_time({app=~".+"}[1m]))',
  'sum(count_over_time({app=~".+"} | trace_id="trace-web-3-7" [5m]))',
];

describe('the compactor merges small chunks; metadata equality skips blocks', () => {
  let sut: ServerProcess;
  beforeAll(async () => {
    sut = await startServer({
      flags: [
        '-compactor.compaction-interval=1s',
        '-compactor.retention-delete-delay=0s',
        // Small blocks: a chunk of a flush holds many, so skipping them shows.
        '-ingester.chunks-block-size=4KB',
      ],
    });
  }, 60_000);
  afterAll(() => sut?.dispose());

  it('answers the same before and after; fewer objects; trace ids read few blocks', async () => {
    const t0 = BigInt(Date.now() - 30 * 60_000) * 1_000_000n;
    const startNs = t0 - 1_000_000_000n;
    const endNs = t0 + BigInt(FLUSHES * PER_FLUSH + 1) * 1_000_000n + 60_000_000_000n;
    for (let f = 0; f < FLUSHES; f++) {
      const streams = STREAMS.map((app) => ({
        stream: { app },
        values: Array.from({ length: PER_FLUSH }, (_, i) => {
          const n = f * PER_FLUSH + i;
          const level = n % 25 === 0 ? 'warn' : 'info';
          return [
            String(t0 + BigInt(n) * 1_000_000n),
            `level=${level} request ${n} path=/v1/items/${n % 37} took ${n % 91}ms`,
            { trace_id: `trace-${app}-${f}-${i}`, detected_level: level },
          ];
        }),
      }));
      const res = await fetch(`${sut.url}/loki/api/v1/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ streams }),
      });
      expect(res.status).toBe(204);
      expect((await fetch(`${sut.url}/flush`, { method: 'POST' })).status).toBe(204);
    }
    const before = await Promise.all(QUERIES.map((q) => query(sut.url, q, startNs, endNs)));
    // Every entry is its own stream in the answer: its metadata is in its labels.
    expect(before[0].data.result).toHaveLength(FLUSHES * PER_FLUSH * STREAMS.length);

    await eventually(
      async () =>
        (await metric(sut.url, 'logsvc_compactor_small_chunks_merged_total')) >=
        FLUSHES * STREAMS.length
          ? true
          : undefined,
      'the small chunks to be merged',
      40_000,
    );
    const chunks = new FilesystemObjectClient(join(sut.dataDir, 'chunks'));
    await eventually(
      async () =>
        (await chunks.list('fake/chunks/')).objects.length === STREAMS.length ? true : undefined,
      'the merged chunks alone to be left',
      40_000,
    );
    expect(await metric(sut.url, 'logsvc_compactor_merged_chunks_written_total')).toBeGreaterThan(
      0,
    );
    const after = await Promise.all(QUERIES.map((q) => query(sut.url, q, startNs, endNs)));
    for (let i = 0; i < QUERIES.length; i++) {
      expect(after[i].data.result, QUERIES[i]).toEqual(before[i].data.result);
    }

    // One trace id: the store reads a few blocks, not the stream's every line.
    const lines = (a: Answer) => a.data.stats.querier.store.chunk.decompressedLines;
    const all = await query(sut.url, '{app="api"} | trace_id!="none"', startNs, endNs);
    expect(lines(all)).toBeGreaterThanOrEqual(FLUSHES * PER_FLUSH);
    expect(lines(after[1])).toBeLessThan(lines(all) / 10);
    expect(after[1].data.result).toHaveLength(1);
  }, 120_000);
});
