import { parseLabels } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import { Querier, type QueryRequest, type QueryWorkerPool, runPooledQuery } from '@logsvc/querier';
import type { ChunkStore } from '@logsvc/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_STORE } from '../src/modules/core/chunk-store.provider';
import { QUERY_WORKER_POOL } from '../src/modules/querier/query-worker-pool.provider';
import { type TestServer, startTestServer } from './harness';
import { nowNs, pushToIngester } from './read-helpers';

const S = 1_000_000_000n;
const HOUR = 3600n * S;

describe('the querier’s query worker pool in the server', () => {
  let sut: TestServer;
  const from = ((nowNs() - 10n * HOUR) / S) * S;

  beforeAll(async () => {
    sut = await startTestServer({ config: { querier: { query_workers: 1 } } });
    // Flushed chunks older than query_ingesters_within (3h), put where the server's store is.
    const store = sut.server.app.get<ChunkStore>(CHUNK_STORE);
    const chunk = new MemChunk();
    for (let i = 0; i < 600; i++) {
      chunk.append(
        from + BigInt(i) * S,
        Buffer.from(`level=${i % 2 ? 'info' : 'warn'} n=${i}`),
        [],
      );
    }
    await store.putChunks('fake', [
      {
        labels: parseLabels('{app="old"}'),
        fromNs: chunk.minTimeNs,
        throughNs: chunk.maxTimeNs,
        entries: chunk.entryCount,
        uncompressedSize: chunk.uncompressedBytes,
        data: chunk.encode(),
      },
    ]);
  });

  afterAll(() => sut?.close());

  const request = (over: Partial<QueryRequest>): QueryRequest => ({
    kind: 'range',
    query: 'sum by (level) (count_over_time({app="old"} | logfmt [1m]))',
    startNs: from,
    endNs: from + HOUR,
    stepNs: 60n * S,
    intervalNs: 0n,
    limit: 100,
    direction: 'backward',
    tenants: ['fake'],
    categorizeLabels: false,
    clientSignal: new AbortController().signal,
    ...over,
  });

  it('answers old sub-queries in its workers as the querier does, over the server’s store', async () => {
    const pool = sut.server.app.get<QueryWorkerPool | null>(QUERY_WORKER_POOL);
    const querier = sut.server.app.get(Querier);
    expect(pool?.size).toBe(1);
    const r = request({});
    expect(await querier.poolQuery(r)).not.toBeNull();
    const pooled = await runPooledQuery(querier, pool, r);
    expect(pooled.result).toEqual((await querier.query(r)).result);
    expect(pooled.result.type === 'matrix' && pooled.result.series.length).toBe(2);
    const logs = await runPooledQuery(querier, pool, request({ query: '{app="old"}', limit: 5 }));
    expect(logs.result.type === 'streams' && logs.result.streams[0].entries[0][1]).toBe(
      'level=info n=599',
    );
  });

  it('ends the pool when the server stops', async () => {
    const other = await startTestServer({ config: { querier: { query_workers: 1 } } });
    const pool = other.server.app.get<QueryWorkerPool>(QUERY_WORKER_POOL);
    const query = await other.server.app.get(Querier).poolQuery(request({}));
    await other.close();
    await expect(pool.run(query!, new AbortController().signal)).rejects.toThrow(
      'query worker pool is closed',
    );
  });

  it('answers recent sub-queries in its workers over the in-process ingester', async () => {
    const other = await startTestServer({
      config: { querier: { query_workers: 1, query_workers_min_ingester_bytes: 0 } },
    });
    try {
      const recent = ((nowNs() - HOUR) / S) * S;
      const rows: [bigint, string][] = [];
      for (let i = 0; i < 3000; i++) {
        rows.push([
          recent + BigInt(i) * S,
          `level=${i % 3 ? 'info' : 'warn'} latency_ms=${i % 700}`,
        ]);
      }
      await pushToIngester(other, 'fake', '{app="new"}', rows);
      const pool = other.server.app.get<QueryWorkerPool>(QUERY_WORKER_POOL);
      const querier = other.server.app.get(Querier);
      const r = request({
        query: 'sum by (level) (count_over_time({app="new"} | logfmt | latency_ms > 300 [5m]))',
        startNs: recent,
        endNs: recent + HOUR,
      });
      expect((await querier.poolQuery(r))?.window).toBeDefined();
      const pooled = await runPooledQuery(querier, pool, r);
      const here = await querier.query(r);
      expect(pooled.result).toEqual(here.result);
      expect(pooled.stats.ingester).toEqual(here.stats.ingester);
      expect(pooled.stats.ingester.totalLinesSent).toBe(3000);
    } finally {
      await other.close();
    }
  });

  it('has no pool with query_workers: -1', async () => {
    const other = await startTestServer({ config: { querier: { query_workers: -1 } } });
    try {
      expect(other.server.app.get(QUERY_WORKER_POOL)).toBeNull();
    } finally {
      await other.close();
    }
  });
});
