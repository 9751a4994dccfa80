import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Labels, type Matcher, parseLabels } from '@logsvc/api';
import { MemChunk } from '@logsvc/chunk';
import { Overrides, defaultConfig } from '@logsvc/config';
import type {
  IngesterClient,
  IngesterSelect,
  LabelQuery,
  PushOutcome,
  StreamAdmission,
  StreamQueryResult,
  StreamVolume,
  TailSubscription,
} from '@logsvc/ingester';
import { ChunkStore, FilesystemObjectClient } from '@logsvc/storage';
import type { LogsvcError } from '@logsvc/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Querier } from './querier';
import type { QueryRequest } from './query-executor';
import { filesystemStore, toStoredChunk } from './testing/filesystem-store';

const S = 1_000_000_000n;
const HOUR = 3600n * S;
const NOW = 1_700_000_000n * S;
const OLD_TS = NOW - 5n * HOUR;
const RECENT_TS = NOW - 10n * 60n * S;

/** Ingesters holding one recent entry; every range they are asked for is written down. */
class RecordingIngesters implements IngesterClient {
  readonly asked: { fromNs: bigint; throughNs: bigint }[] = [];

  push(): Promise<PushOutcome> {
    throw new Error('not used');
  }

  streamAdmission(): Promise<StreamAdmission> {
    throw new Error('not used');
  }

  tail(): Promise<TailSubscription> {
    throw new Error('not used');
  }

  async query(_tenant: string, select: IngesterSelect, stats?: { ingestersReached: number }) {
    this.asked.push({ fromNs: select.fromNs, throughNs: select.throughNs });
    if (stats) stats.ingestersReached++;
    const c = new MemChunk();
    c.append(RECENT_TS, Buffer.from('recent'), []);
    const entries = c.iterator(select.fromNs, select.throughNs, select.direction);
    const result: StreamQueryResult = {
      labels: parseLabels('{app="api"}'),
      fingerprint: 1,
      cursors: [entries],
      entries,
    };
    return [result];
  }

  async labelNames(_tenant: string, q: LabelQuery): Promise<string[]> {
    this.asked.push({ fromNs: q.fromNs, throughNs: q.throughNs });
    return ['recent_label'];
  }

  async labelValues(): Promise<string[]> {
    return [];
  }

  async series(): Promise<Labels[]> {
    return [];
  }

  async volume(
    _tenant: string,
    _matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<StreamVolume[]> {
    this.asked.push({ fromNs, throughNs });
    return [];
  }
}

const request = (startNs: bigint, endNs: bigint): QueryRequest => ({
  kind: 'range',
  query: '{app="api"}',
  startNs,
  endNs,
  stepNs: S,
  intervalNs: 0n,
  limit: 100,
  direction: 'backward',
  tenants: ['t'],
  categorizeLabels: false,
  clientSignal: new AbortController().signal,
});

const lines = (r: Awaited<ReturnType<Querier['query']>>): string[] =>
  r.result.type === 'streams' ? r.result.streams.flatMap((s) => s.entries.map((e) => e[1])) : [];

describe('Querier: query_ingesters_within', () => {
  let dir: string;
  let store: ChunkStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-querier-'));
    store = filesystemStore(dir);
    const c = new MemChunk();
    c.append(OLD_TS, Buffer.from('flushed'), []);
    await store.putChunks('t', [toStoredChunk(parseLabels('{app="api"}'), c)]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const querier = (ingesters: IngesterClient, withinMs: number) =>
    new Querier({
      store,
      ingesters,
      window: {
        query_ingesters_within: withinMs,
        query_store_only: false,
        query_ingester_only: false,
      },
      overrides: new Overrides(defaultConfig().limits_config, { file: '', periodMs: 10_000 }),
      now: () => NOW,
      scanWorkers: -1,
    });

  it('does not ask the ingesters for a range wholly older than now - within, yet returns stored data', async () => {
    const ingesters = new RecordingIngesters();
    const sut = querier(ingesters, 3600_000);
    const old = await sut.query(request(NOW - 6n * HOUR, NOW - 2n * HOUR));
    expect(lines(old)).toEqual(['flushed']);
    expect(await sut.labelNames(['t'], NOW - 6n * HOUR, NOW - 2n * HOUR, [])).toEqual(['app']);
    expect(ingesters.asked).toEqual([]);
  });

  it('asks the ingesters only for the recent part of a range that reaches into it', async () => {
    const ingesters = new RecordingIngesters();
    const sut = querier(ingesters, 3600_000);
    const both = await sut.query(request(NOW - 6n * HOUR, NOW));
    expect(lines(both)).toEqual(['recent', 'flushed']);
    expect(ingesters.asked.length).toBeGreaterThan(0);
    for (const range of ingesters.asked) expect(range.fromNs).toBe(NOW - HOUR);
  });

  it('asks the ingesters for any range when query_ingesters_within is 0', async () => {
    const ingesters = new RecordingIngesters();
    const sut = querier(ingesters, 0);
    const old = await sut.query(request(NOW - 6n * HOUR, NOW - 2n * HOUR));
    expect(lines(old)).toEqual(['flushed']);
    expect(ingesters.asked.map((r) => r.fromNs)).toEqual([NOW - 6n * HOUR]);
  });
});

describe('Querier: errors of the read path', () => {
  const sut = new Querier({
    store: new ChunkStore({
      schema: defaultConfig().schema_config,
      objectClients: { filesystem: new FilesystemObjectClient(join(tmpdir(), 'logsvc-none')) },
      uploader: 'test',
    }),
    ingesters: new RecordingIngesters(),
    window: { query_ingesters_within: 0, query_store_only: false, query_ingester_only: false },
    overrides: new Overrides(
      { ...defaultConfig().limits_config, max_entries_limit_per_query: 50, volume_enabled: false },
      { file: '', periodMs: 10_000 },
    ),
    now: () => NOW,
    scanWorkers: -1,
  });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a failure');
      },
      (e: unknown) => e as LogsvcError,
    );

  it('refuses bad LogQL, an instant log query and limits as bad requests, with Loki’s texts', async () => {
    const bad = await failure(sut.query({ ...request(NOW - HOUR, NOW), query: '{app="api"' }));
    expect([bad.name, bad.httpStatus]).toEqual(['ParseError', 400]);
    const instant = await failure(sut.query({ ...request(NOW, NOW), kind: 'instant', limit: 10 }));
    expect([instant.name, instant.httpStatus]).toEqual(['UnsupportedQueryError', 400]);
    const limit = await failure(sut.query({ ...request(NOW - HOUR, NOW), limit: 51 }));
    expect([limit.name, limit.httpStatus, limit.message]).toEqual([
      'ParamError',
      400,
      'max entries limit per query exceeded, limit > max_entries_limit_per_query (51 > 50)',
    ]);
    const matcher = await failure(sut.query({ ...request(NOW - HOUR, NOW), query: '{app=~"("}' }));
    expect(matcher.httpStatus).toBe(400);
  });

  it('answers volumes of a tenant without volume_enabled as a missing endpoint', async () => {
    const err = await failure(
      sut.volumes({
        tenants: ['t'],
        matchers: [],
        targetLabels: [],
        aggregateBy: 'series',
        startNs: NOW - HOUR,
        endNs: NOW,
        stepNs: 0n,
        limit: 100,
      }),
    );
    expect([err.name, err.httpStatus, err.message]).toEqual([
      'VolumesDisabledError',
      404,
      'not found',
    ]);
  });
});
