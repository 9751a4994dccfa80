import {
  EMPTY_LABELS,
  labelsFromRecord,
  labelsToString,
  type PushRequest,
  type PushStream,
} from '@logsvc/api';
import type { Direction, EntryCursor } from '@logsvc/chunk';
import { LogsvcError } from '@logsvc/errors';
import { IngestError, type IngesterReadStats, type PushOutcome } from '@logsvc/ingester';
import { tokenFor, type ReplicationRing } from '@logsvc/ring';
import fc from 'fast-check';
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { RingIngesterClient } from './ring-ingester-client';
import { FakeTokenRing, startIngesters, type TestIngesters } from './testing/cluster';

const TENANT = 'tenant-a';
const HOUR_NS = 3_600_000_000_000n;
const T0 = 1_700_000_000_000_000_000n;
const ALL = { fromNs: 0n, throughNs: T0 * 2n };

function stream(labels: Record<string, string>, entries: [bigint, string][]): PushStream {
  return {
    labels: labelsFromRecord(labels),
    entries: entries.map(([timestampNs, line]) => ({
      timestampNs,
      line: Buffer.from(line),
      structuredMetadata: EMPTY_LABELS,
    })),
  };
}

function drain(cursor: EntryCursor): string[] {
  const out: string[] = [];
  while (cursor.next()) out.push(`${cursor.timestampNs} ${cursor.line.toString()}`);
  return out;
}

function newStats(): IngesterReadStats {
  return {
    totalChunksMatched: 0,
    headChunkBytes: 0,
    headChunkLines: 0,
    compressedBytes: 0,
    ingestersReached: 0,
  };
}

/** Every stream's entries the client gives for `{}` over all time, by label text. */
async function queryAll(
  client: RingIngesterClient,
  tenant = TENANT,
  direction: Direction = 'forward',
  stats?: IngesterReadStats,
): Promise<Record<string, string[]>> {
  const select = { matchers: [], ...ALL, direction };
  const out: Record<string, string[]> = {};
  for (const r of await client.query(tenant, select, stats)) {
    out[labelsToString(r.labels)] = drain(r.entries);
  }
  return out;
}

const logger = () => ({ warn: vi.fn() });

describe('RingIngesterClient on three ingesters with RF 3', () => {
  let cluster: TestIngesters;
  let ring: FakeTokenRing;
  let log: ReturnType<typeof logger>;
  let sut: RingIngesterClient;

  const setup = async () => {
    ring = FakeTokenRing.spread(3, 3);
    cluster = await startIngesters(ring.instances);
    log = logger();
    sut = new RingIngesterClient({ ring: () => ring, clientFor: cluster.clientFor, logger: log });
  };
  afterEach(async () => {
    await cluster.stop();
  });

  const request: PushRequest = {
    streams: [
      stream({ app: 'api' }, [
        [T0, 'one'],
        [T0 + 1n, 'two'],
      ]),
      stream({ app: 'web' }, [[T0, 'three']]),
    ],
  };

  it('stores a push on all three and counts it once', async () => {
    await setup();

    const outcome = await sut.push(TENANT, request);

    expect(outcome).toEqual({ appended: 3, appendedBytes: 11, duplicates: 0, errors: [] });
    for (const ingester of cluster.ingesters) {
      expect(ingester.series(TENANT, [], ALL.fromNs, ALL.throughNs).map(labelsToString)).toEqual(
        expect.arrayContaining(['{app="api"}', '{app="web"}']),
      );
    }
  });

  it('answers a query with every entry once, in either direction', async () => {
    await setup();
    await sut.push(TENANT, request);
    const stats = newStats();

    const forward = await queryAll(sut, TENANT, 'forward', stats);
    const backward = await queryAll(sut, TENANT, 'backward');

    expect(forward).toEqual({
      '{app="api"}': [`${T0} one`, `${T0 + 1n} two`],
      '{app="web"}': [`${T0} three`],
    });
    expect(backward['{app="api"}']).toEqual([`${T0 + 1n} two`, `${T0} one`]);
    // As Loki's querier: the first `instances - maxErrors` answers, even when all three answer.
    expect(stats.ingestersReached).toBe(2);
    expect(stats.headChunkLines).toBe(6); // each reached replica's head chunk lines
  });

  it('succeeds with one ingester down, and fails 503 with two down', async () => {
    await setup();
    cluster.clients[0].failure = new LogsvcError('unavailable', 'connection refused');

    await expect(sut.push(TENANT, request)).resolves.toMatchObject({ appended: 3 });
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ ingester: 'ingester-0', err: 'connection refused' }),
      expect.stringMatching(/^push to ingester failed/),
    );

    cluster.clients[1].failure = new Error('socket hang up');
    const err = await sut.push(TENANT, request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogsvcError);
    expect((err as LogsvcError).httpStatus).toBe(503);
    expect((err as LogsvcError).message).toMatch(
      /^failed to push to ingesters: 2 of 3 replicas of stream \{app="(api|web)"\} failed, at most 1 may: (connection refused|socket hang up)$/,
    );
  });

  it('answers on a quorum while an ingester never answers', { timeout: 2_000 }, async () => {
    await setup();
    cluster.clients[2].hang = true;

    await expect(sut.push(TENANT, request)).resolves.toMatchObject({ appended: 3 });
    expect(await queryAll(sut)).toEqual({
      '{app="api"}': [`${T0} one`, `${T0 + 1n} two`],
      '{app="web"}': [`${T0} three`],
    });
  });

  it('only logs a replica that fails after the push was answered', async () => {
    await setup();
    let failLate: (err: Error) => void = () => {};
    cluster.clients[2].push = () =>
      new Promise<PushOutcome>((_, reject) => {
        failLate = reject;
      });

    await expect(sut.push(TENANT, request)).resolves.toMatchObject({ appended: 3 });
    failLate(new Error('disk full'));
    await new Promise((r) => setImmediate(r));

    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ ingester: 'ingester-2', err: 'disk full' }),
      'push to ingester failed after the push was answered',
    );
  });

  it('reports a stream every replica refused once, and counts what was stored once', async () => {
    await setup();
    await sut.push(TENANT, request);

    // Two hours behind the stream's newest entry: past the 1 h window of every replica.
    const late: PushRequest = {
      streams: [
        stream({ app: 'api' }, [
          [T0 - 2n * HOUR_NS, 'late'],
          [T0 + 2n, 'fine'],
        ]),
      ],
    };
    const outcome = await sut.push(TENANT, late);

    expect(outcome.appended).toBe(1);
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toBeInstanceOf(IngestError);
    expect(outcome.errors[0]).toMatchObject({ reason: 'too_far_behind', discardedEntries: 1 });
  });

  it('gives a whole-request 4xx as is when it leaves a stream without quorum', async () => {
    await setup();
    const busy = new LogsvcError('limit', 'ingester over its push limit');
    cluster.clients[0].failure = busy;
    await expect(sut.push(TENANT, request)).resolves.toMatchObject({ appended: 3 });

    cluster.clients[1].failure = new LogsvcError('unavailable', 'stopping');
    await expect(sut.push(TENANT, request)).rejects.toBe(busy);
  });

  it('fails 503 with the ring’s words when it has too few ingesters', async () => {
    await setup();
    const broken: ReplicationRing = {
      writeSet: () => {
        throw new Error('at least 2 live replicas required, could only find 1');
      },
      readSet: () => {
        throw new Error('too many unhealthy instances in the ring');
      },
    };
    const client = new RingIngesterClient({ ring: () => broken, clientFor: cluster.clientFor });

    await expect(client.push(TENANT, request)).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'at least 2 live replicas required, could only find 1',
    });
    await expect(client.labelNames(TENANT, ALL)).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'too many unhealthy instances in the ring',
    });
  });

  it('reads with one ingester down, but not with two', async () => {
    await setup();
    await sut.push(TENANT, request);
    cluster.clients[1].failure = new LogsvcError('unavailable', 'connection refused');
    const stats = newStats();

    expect(await queryAll(sut, TENANT, 'forward', stats)).toEqual({
      '{app="api"}': [`${T0} one`, `${T0 + 1n} two`],
      '{app="web"}': [`${T0} three`],
    });
    expect(stats.ingestersReached).toBe(2);
    expect(await sut.labelNames(TENANT, ALL)).toEqual(['app']);
    expect(await sut.labelValues(TENANT, 'app', ALL)).toEqual(['api', 'web']);
    expect((await sut.series(TENANT, [], ALL.fromNs, ALL.throughNs)).map(labelsToString)).toEqual([
      '{app="api"}',
      '{app="web"}',
    ]);
    expect(await sut.volume(TENANT, [], ALL.fromNs, ALL.throughNs)).toEqual([
      { labels: labelsFromRecord({ app: 'api' }), bytes: 6 },
      { labels: labelsFromRecord({ app: 'web' }), bytes: 5 },
    ]);

    cluster.clients[2].failure = new Error('connection reset');
    await expect(queryAll(sut)).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'connection refused',
    });
    await expect(sut.labelValues(TENANT, 'app', ALL)).rejects.toMatchObject({
      kind: 'unavailable',
    });
  });

  it('reads on a quorum while an ingester never answers', { timeout: 2_000 }, async () => {
    await setup();
    await sut.push(TENANT, request);
    cluster.clients[0].hang = true;

    expect(await sut.labelValues(TENANT, 'app', ALL)).toEqual(['api', 'web']);
  });

  it("counts a tenant's tails as the ingester holding the most, within the read error budget", async () => {
    await setup();
    const none = (): void => {};
    // Each querier's tail subscribes on every ingester; one whose stream to the second ingester
    // broke leaves it with 1 where the others hold 2. Any two of them hold a 2.
    for (const [i, n] of [2, 1, 2].entries())
      for (let k = 0; k < n; k++) await cluster.clients[i].tail(TENANT, [], none);
    for (const c of cluster.clients) await c.tail('other-tenant', [], none);

    expect(await sut.tailersCount(TENANT)).toBe(2);
    expect(await sut.tailersCount('other-tenant')).toBe(1);
    cluster.clients[2].failure = new LogsvcError('unavailable', 'connection refused');
    expect(await sut.tailersCount(TENANT)).toBe(2);
    cluster.clients[0].failure = new LogsvcError('unavailable', 'connection refused');
    await expect(sut.tailersCount(TENANT)).rejects.toMatchObject({ kind: 'unavailable' });

    const leaving = new FakeTokenRing(
      ring.instances.map((i) => ({ ...i, state: 'LEAVING' as const })),
      3,
    );
    const noneActive = new RingIngesterClient({
      ring: () => leaving,
      clientFor: cluster.clientFor,
    });
    await expect(noneActive.tailersCount(TENANT)).rejects.toMatchObject({
      kind: 'internal',
      message: 'no active ingester found',
    });
  });

  it('lists the tenants every ingester holds in memory, also one only another ingester has', async () => {
    await setup();
    await sut.push(TENANT, request);
    // Straight to one ingester: a tenant the others never saw.
    await cluster.clients[2].push('only-on-two', request);

    expect(await sut.tenants()).toEqual(['only-on-two', TENANT]);
    cluster.clients[0].failure = new LogsvcError('unavailable', 'connection refused');
    expect(await sut.tenants()).toEqual(['only-on-two', TENANT]);
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: 'connection refused' }),
      'tenants on ingester failed',
    );
    cluster.clients[1].failure = new LogsvcError('unavailable', 'connection refused');
    cluster.clients[2].failure = new LogsvcError('unavailable', 'connection refused');
    await expect(sut.tenants()).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('takes the largest volume of a stream over replicas that diverged', async () => {
    await setup();
    // Straight to the ingesters: replica 0 missed a write the others took.
    const first = { streams: [stream({ app: 'api' }, [[T0, 'aaaa']])] };
    const second = { streams: [stream({ app: 'api' }, [[T0 + 1n, 'bb']])] };
    for (const c of cluster.clients) await c.push(TENANT, first);
    for (const c of cluster.clients.slice(1)) await c.push(TENANT, second);

    expect(await sut.volume(TENANT, [], ALL.fromNs, ALL.throughNs)).toEqual([
      { labels: labelsFromRecord({ app: 'api' }), bytes: 6 },
    ]);
  });
});

describe('RingIngesterClient on five ingesters with RF 3', () => {
  it('stores each stream on the three replicas its token maps to', async () => {
    const ring = FakeTokenRing.spread(5, 3);
    const cluster = await startIngesters(ring.instances);
    try {
      const sut = new RingIngesterClient({ ring: () => ring, clientFor: cluster.clientFor });
      const streams = Array.from({ length: 40 }, (_, i) =>
        stream({ app: `app-${i}` }, [[T0 + BigInt(i), `line ${i}`]]),
      );

      const outcome = await sut.push(TENANT, { streams });

      expect(outcome.appended).toBe(40);
      const held = cluster.ingesters.map((ingester) =>
        ingester.series(TENANT, [], ALL.fromNs, ALL.throughNs).map(labelsToString).sort(),
      );
      const expected = ring.instances.map(() => [] as string[]);
      for (const s of streams) {
        const text = labelsToString(s.labels);
        for (const replica of ring.writeSet(tokenFor(TENANT, text)).instances) {
          expected[ring.instances.indexOf(replica)].push(text);
        }
      }
      expect(held).toEqual(expected.map((texts) => texts.sort()));
      // Spread: no ingester holds everything, and every one holds something.
      for (const texts of held) expect(texts.length).toBeGreaterThan(0);
      for (const texts of held) expect(texts.length).toBeLessThan(40);

      const all = await queryAll(sut);
      expect(Object.keys(all)).toHaveLength(40);
      for (const [i, s] of streams.entries()) {
        expect(all[labelsToString(s.labels)]).toEqual([`${T0 + BigInt(i)} line ${i}`]);
      }
    } finally {
      await cluster.stop();
    }
  });
});

describe('RingIngesterClient query over replicas holding different parts', () => {
  const ring = FakeTokenRing.spread(3, 3, 1);
  const readAll = new FakeTokenRing(ring.instances, 3, 0);
  let cluster: TestIngesters;
  beforeAll(async () => {
    cluster = await startIngesters(ring.instances);
  });
  afterAll(async () => {
    await cluster.stop();
  });

  it('returns the union of their entries, each once, in time order', async () => {
    const entry = fc.record({
      ts: fc.bigInt({ min: 0n, max: 20n }),
      line: fc.constantFrom('a', 'b', 'c', 'dd'),
      replicas: fc.integer({ min: 1, max: 7 }), // bit mask: which replicas hold it
    });
    const entries = fc.uniqueArray(entry, {
      minLength: 1,
      maxLength: 40,
      selector: (e) => `${e.ts} ${e.line}`,
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        entries,
        fc.constantFrom<Direction>('forward', 'backward'),
        async (es, d) => {
          const tenant = `run-${run++}`; // a fresh tenant: the ingesters are shared by all runs
          for (const [i, client] of cluster.clients.entries()) {
            const held = es.filter((e) => (e.replicas & (1 << i)) !== 0);
            if (held.length === 0) continue;
            const pairs = held.map((e): [bigint, string] => [T0 + e.ts, e.line]);
            await client.push(tenant, { streams: [stream({ app: 'x' }, pairs)] });
          }
          const sut = new RingIngesterClient({ ring: () => readAll, clientFor: cluster.clientFor });

          const got = (await queryAll(sut, tenant, d))['{app="x"}'];

          const union = es.map((e) => `${T0 + e.ts} ${e.line}`);
          expect([...got].sort()).toEqual([...union].sort());
          const times = got.map((g) => BigInt(g.split(' ')[0]));
          for (let i = 1; i < times.length; i++) {
            expect(d === 'forward' ? times[i] >= times[i - 1] : times[i] <= times[i - 1]).toBe(
              true,
            );
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
