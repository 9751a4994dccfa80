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
  StreamQueryResult,
  StreamVolume,
  TailSubscription,
} from '@logsvc/ingester';
import { ChunkStore, FilesystemObjectClient } from '@logsvc/storage';
import { LogsvcError } from '@logsvc/errors';
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

  tail(): Promise<TailSubscription> {
    throw new Error('not used');
  }

  tailersCount(): Promise<number> {
    throw new Error('not used');
  }

  tenants(): Promise<string[]> {
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

/** Ingesters that report a tail count for the tenant (other queriers' tails) and record tails. */
class CountingTailIngesters extends RecordingIngesters {
  tailsOpened = 0;
  constructor(private readonly count: () => Promise<number>) {
    super();
  }
  override async tail(): Promise<TailSubscription> {
    this.tailsOpened++;
    return { close: () => {} };
  }
  override tailersCount(): Promise<number> {
    return this.count();
  }
}

describe('Querier: max_concurrent_tail_requests counted on the ingesters', () => {
  const querier = (ingesters: IngesterClient) =>
    new Querier({
      store: new ChunkStore({
        schema: defaultConfig().schema_config,
        objectClients: { filesystem: new FilesystemObjectClient(join(tmpdir(), 'logsvc-none')) },
        uploader: 'test',
      }),
      ingesters,
      window: { query_ingesters_within: 0, query_store_only: false, query_ingester_only: false },
      overrides: new Overrides(
        { ...defaultConfig().limits_config, max_concurrent_tail_requests: 2 },
        { file: '', periodMs: 10_000 },
      ),
      now: () => NOW,
      scanWorkers: -1,
    });
  const tailRequest = { tenant: 't', query: '{app="api"}', startNs: NOW, limit: 10, delayForMs: 0 };
  /** Opens a tail and waits until it failed or reached the ingesters. */
  async function openTail(sut: Querier, ingesters: CountingTailIngesters) {
    let failure: Error | undefined;
    const opened = ingesters.tailsOpened;
    const tailer = sut.tail(tailRequest, {
      bufferedBytes: () => 0,
      send: () => {},
      fail: (err) => (failure = err),
    });
    for (let i = 0; i < 50 && failure === undefined && ingesters.tailsOpened === opened; i++)
      await new Promise((r) => setTimeout(r, 1));
    return { tailer, failure };
  }

  it("refuses a tail when an ingester holds the limit's worth of the tenant's tails", async () => {
    const ingesters = new CountingTailIngesters(async () => 2);
    const sut = querier(ingesters);
    const { tailer, failure } = await openTail(sut, ingesters);
    expect(failure?.message).toBe(
      'max concurrent tail requests limit exceeded, count > limit (3 > 2)',
    );
    expect(ingesters.tailsOpened).toBe(0);
    expect(tailer.isClosed).toBe(true);
    // Its slot on this querier is free again.
    expect(sut.openTails('t')).toBe(0);
  });

  it("starts a tail below the limit, and counts this querier's tails the ingesters miss", async () => {
    // Ingesters that see one tail (another querier's), whatever this one opens.
    const ingesters = new CountingTailIngesters(async () => 1);
    const sut = querier(ingesters);
    const first = await openTail(sut, ingesters);
    expect(first.failure).toBeUndefined();
    expect(ingesters.tailsOpened).toBe(1);
    const second = await openTail(sut, ingesters);
    expect(second.failure).toBeUndefined();
    // Two open here: the third is refused by this querier's own count.
    const third = await openTail(sut, ingesters);
    expect(third.failure?.message).toBe(
      'max concurrent tail requests limit exceeded, count > limit (3 > 2)',
    );
    expect(ingesters.tailsOpened).toBe(2);
    first.tailer.close();
    second.tailer.close();
  });

  it('ends the tail with the error when the ingesters cannot be asked', async () => {
    const ingesters = new CountingTailIngesters(() =>
      Promise.reject(new LogsvcError('internal', 'no active ingester found')),
    );
    const { failure } = await openTail(querier(ingesters), ingesters);
    expect(failure?.message).toBe('no active ingester found');
    expect(ingesters.tailsOpened).toBe(0);
  });
});
