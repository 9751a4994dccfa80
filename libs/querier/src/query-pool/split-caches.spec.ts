/**
 * A query cut into hourly splits and shards, as the query frontend cuts it, answers each part
 * the same with the chunk cache, the block cache and shard affinity as without them: on the
 * main thread and in the query worker pool, splits read one after another or all at once, with
 * caches small enough to evict.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labelsFromRecord, parseLabels, type ShardRef } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import { Overrides, defaultConfig } from '@logsvc/config';
import { LocalIngesterClient } from '@logsvc/ingester';
import type { QueryStats, RunQueryResult } from '@logsvc/logql';
import { ChunkStore, type ChunkStoreSettings } from '@logsvc/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkDecoder } from '../chunk-decoder';
import { Querier } from '../querier';
import type { QueryRequest } from '../query-executor';
import {
  filesystemStoreOptions,
  filesystemStoreSettings,
  toStoredChunk,
} from '../testing/filesystem-store';
import { HOUR, MIN, NOW, S } from '../testing/clock';
import { QueryWorkerPool } from './query-worker-pool';
import { runPooledQuery } from './run-query';

const FROM = NOW - 12n * HOUR;
const SPAN = 6n * HOUR;

/**
 * Eight streams, each one chunk over six hours in blocks of ~2 KiB (several per split, with
 * boundaries anywhere), an entry every 29 s; a third carry structured metadata.
 */
async function storeStreams(dir: string): Promise<void> {
  const store = new ChunkStore(filesystemStoreOptions(dir));
  for (let s = 0; s < 8; s++) {
    const level = ['info', 'warn', 'error'][s % 3];
    const labels = parseLabels(`{app="api", level="${level}", pod="p${s}"}`);
    const chunk = new MemChunk({ blockSize: 2048, targetSize: 0 });
    for (let t = FROM + BigInt(s) * S; t < FROM + SPAN; t += 29n * S) {
      const i = Number((t - FROM) / S);
      const line = `level=${level} msg="req ${i}" took=${i % 97}ms${i % 5 === 0 ? ' slow' : ''}`;
      const sm = i % 3 === 0 ? labelsFromRecord({ trace: `t${i % 4}` }) : [];
      chunk.append(t, Buffer.from(line), sm);
    }
    await store.putChunks('t', [toStoredChunk(labels, chunk)]);
  }
}

const QUERIES = [
  'sum by (level) (rate({app="api"}[1m]))',
  'sum by (trace) (count_over_time({app="api"}[5m]))',
  'sum by (level) (bytes_over_time({app="api"} |= "slow" [2m]))',
  'sum by (level) (avg_over_time({app="api"} | logfmt | unwrap duration(took) [10m]))',
];

/** The query's hourly splits (ranges ending a step before the next), each in `shards` shards. */
function subQueries(query: string, shards: number): QueryRequest[] {
  const out: QueryRequest[] = [];
  const start = FROM + 7n * MIN;
  for (let from = start; from < FROM + SPAN; from += HOUR) {
    for (let index = 0; index < shards; index++) {
      const shard: ShardRef | undefined = shards > 1 ? { index, of: shards } : undefined;
      out.push({
        kind: 'range',
        query,
        startNs: from,
        endNs: from + HOUR - MIN,
        stepNs: MIN,
        intervalNs: 0n,
        limit: 0,
        direction: 'backward',
        tenants: ['t'],
        categorizeLabels: false,
        clientSignal: new AbortController().signal,
        ...(shard === undefined ? {} : { shard }),
      });
    }
  }
  return out;
}

/** Log queries over the same splits, both directions. */
function logSubQueries(): QueryRequest[] {
  return subQueries('{app="api"} |= "slow"', 2).flatMap((r) => [
    { ...r, kind: 'range' as const, stepNs: 0n, limit: 500, direction: 'forward' as const },
    { ...r, kind: 'range' as const, stepNs: 0n, limit: 500, direction: 'backward' as const },
  ]);
}

/** What a caller sees of an answer: the result and the line and byte counts. */
function seen(r: RunQueryResult): unknown {
  const stats: QueryStats = r.stats;
  return {
    result: r.result,
    lines: stats.summary.totalLinesProcessed,
    bytes: stats.summary.totalBytesProcessed,
  };
}

describe('split sub-queries with the chunk and block caches', () => {
  let dir: string;
  const queriers: Querier[] = [];
  const expected = new Map<QueryRequest, unknown>();
  const all = [
    ...QUERIES.flatMap((q) => [...subQueries(q, 1), ...subQueries(q, 3)]),
    ...logSubQueries(),
  ];

  /** `decoder`: the querier's own block cache; default: this thread's `chunkDecoder`. */
  function querier(chunkCacheMb: number | null, decoder?: ChunkDecoder): Querier {
    const settings: ChunkStoreSettings = {
      ...filesystemStoreSettings(dir),
      chunkCache: chunkCacheMb === null ? null : { maxSizeMb: chunkCacheMb },
    };
    const q = new Querier({
      store: new ChunkStore({ ...filesystemStoreOptions(dir), chunkCache: settings.chunkCache }),
      ingesters: new LocalIngesterClient(),
      window: {
        query_ingesters_within: 3 * 3600_000,
        query_store_only: false,
        query_ingester_only: false,
      },
      overrides: new Overrides(
        { ...defaultConfig().limits_config, max_query_length: 0 },
        { file: '', periodMs: 10_000 },
      ),
      now: () => NOW,
      scanWorkers: -1,
      ...(decoder === undefined ? {} : { decoder }),
    });
    queriers.push(q);
    return q;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-split-caches-'));
    await storeStreams(dir);
    // The reference: no chunk cache, no block cache, every sub-query alone.
    const plain = querier(null, new ChunkDecoder(0));
    for (const r of all) expected.set(r, seen(await plain.query(r)));
  });

  afterAll(async () => {
    await Promise.all(queriers.map((q) => q.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the same on the main thread, splits in turn and all at once', async () => {
    // 64 KiB of decoded blocks: far less than the boundaries of all streams, so blocks are
    // evicted before their second reader comes, as well as found.
    const decoder = new ChunkDecoder(0.0625);
    const cached = querier(1, decoder);
    for (const r of all) expect(seen(await cached.query(r))).toEqual(expected.get(r));
    const together = await Promise.all(all.map((r) => cached.query(r)));
    together.forEach((answer, i) => expect(seen(answer)).toEqual(expected.get(all[i])));
    expect(decoder.blocks!.hits).toBeGreaterThan(0);
    expect(decoder.blocks!.misses).toBeGreaterThan(0);
  });

  it('answers the same in two query workers with their own caches', async () => {
    const main = querier(1);
    const pool = new QueryWorkerPool({
      store: { ...filesystemStoreSettings(dir), chunkCache: { maxSizeMb: 1 } },
      size: 2,
      blockCacheMb: 0.0625,
    });
    try {
      for (let round = 0; round < 2; round++) {
        const answers = await Promise.all(all.map((r) => runPooledQuery(main, pool, r)));
        answers.forEach((answer, i) => expect(seen(answer)).toEqual(expected.get(all[i])));
        // The chunk cache served the later splits (entries found, counted per answer).
        const found = answers.reduce((n, a) => n + a.stats.cache.chunk.entriesFound, 0);
        expect(found).toBeGreaterThan(0);
      }
    } finally {
      await pool.close();
    }
  });
});
