// Patterns in a cluster: a distributor tees pushes to two pattern ingesters found through the
// pattern ring, each counts only the streams whose token falls to it, and the querier sums
// them. Then one pattern ingester dies: pushes never fail; queries fail while the dead member
// is still healthy in the ring (Loki's querier asks every healthy pattern ingester and fails on
// any error), and answer from the survivor once its heartbeat is older than the timeout.
import { labelsFromRecord, labelsToString } from '@logsvc/api';
import { Ring, tokenFor, type RingDesc } from '@logsvc/ring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type Member, memberMetric, ringPage } from '../support/cluster';
import { type PushStream, nowNs, pushStreams } from '../support/loki-api';
import { eventually } from '../support/server';

const TENANT = 'fake'; // auth_enabled: false
const STREAMS = 40;
const LOGINS_PER_STREAM = 6;
const ORDERS_PER_STREAM = 4;
const LOGIN = 'user <_> logged in from host <_>';
const ORDER = 'order <_> shipped to warehouse <_> in <_> days';

const podLabels = (i: number) => ({ app: 'shop', pod: `pod-${i}` });
const t0 = nowNs() - 300_000_000_000n; // five minutes ago

/** The stream's lines: two shapes, distinct token counts so Drain never mixes them. */
function linesOf(i: number): string[] {
  const logins = Array.from(
    { length: LOGINS_PER_STREAM },
    (_, j) => `user u${i * 10 + j} logged in from host h${j}`,
  );
  const orders = Array.from(
    { length: ORDERS_PER_STREAM },
    (_, j) => `order ${1000 * i + j} shipped to warehouse w${j} in ${j + 1} days`,
  );
  return [...logins, ...orders];
}

const push = (distributor: Member, streams: readonly PushStream[]) =>
  pushStreams(distributor.process.url, streams);

interface Patterns {
  status: number;
  text: string;
  totals: Record<string, number>;
}

async function patterns(querier: Member): Promise<Patterns> {
  const params = new URLSearchParams({
    query: '{app="shop"}',
    start: String(t0 - 60_000_000_000n),
    end: String(nowNs()),
  });
  const res = await fetch(`${querier.process.url}/loki/api/v1/patterns?${params}`);
  const text = await res.text();
  const totals: Record<string, number> = {};
  if (res.status === 200) {
    const body = JSON.parse(text) as { data: { pattern: string; samples: number[][] }[] };
    for (const p of body.data) totals[p.pattern] = p.samples.reduce((n, [, v]) => n + v, 0);
  }
  return { status: res.status, text, totals };
}

describe('patterns in a cluster (two pattern ingesters, heartbeat timeout 4s)', () => {
  let cluster: EtcdCluster;
  let distributor: Member;
  let querier: Member;
  let patternIngesters: Member[];
  /** Streams (by index) each pattern ingester owns, by its instance id. */
  const owned = new Map<string, number[]>();

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      config: {
        pattern_ingester: {
          enabled: true,
          lifecycler: { min_ready_duration: '0s', ring: { heartbeat_timeout: '4s' } },
        },
      },
    });
    await cluster.add('ingester-1', 'ingester');
    patternIngesters = [await cluster.add('pattern-1', 'pattern-ingester')];
    distributor = await cluster.add('distributor-1', 'distributor');
    querier = await cluster.add('querier-1', 'querier');
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it('answers /ready of a joining pattern ingester with "Pattern Ingester not ready" until it is ACTIVE', async () => {
    const joining = await cluster.add('pattern-2', 'pattern-ingester', {
      config: { pattern_ingester: { lifecycler: { join_after: '2s' } } },
      waitReady: false,
    });
    patternIngesters.push(joining);
    const notReady: string[] = [];
    await eventually(
      async () => {
        const res = await fetch(`${joining.process.url}/ready`).catch(() => undefined);
        if (res === undefined) return undefined;
        const body = await res.text();
        if (res.status === 200) return true;
        if (body.startsWith('Pattern Ingester not ready')) notReady.push(body);
        return undefined;
      },
      'pattern-2 ready',
      30_000,
    );
    expect(notReady.length).toBeGreaterThan(5); // about 2s of polls every 100ms
    // Waiting out join_after it owns no tokens; a poll can also fall in the moment between
    // claiming tokens and turning ACTIVE (Loki's lifecycler check gives the state then).
    expect(notReady[0]).toBe('Pattern Ingester not ready: this instance owns no tokens\n');
    for (const body of notReady) {
      expect(body).toMatch(
        /^Pattern Ingester not ready: (this instance owns no tokens|instance \S+ in state JOINING)\n$/,
      );
    }
    // Both ACTIVE in the ring, as every process sees it.
    for (const m of patternIngesters) {
      await eventually(async () => {
        const { shards } = await ringPage(m, '/pattern/ring');
        const active = shards.filter((s) => s.state === 'ACTIVE').map((s) => s.id);
        return active.length === 2 ? true : undefined;
      }, `${m.name} sees both pattern ingesters ACTIVE`);
    }
    // The ring page is the pattern ingester's: a querier reads the ring but has no page.
    expect((await fetch(`${querier.process.url}/pattern/ring`)).status).toBe(404);
  }, 60_000);

  it('spreads streams over the pattern ingesters by token and sums their patterns in the querier', async () => {
    // Who owns which stream, by the ring the pattern ingesters registered.
    const { shards } = await ringPage(patternIngesters[0], '/pattern/ring');
    const desc: RingDesc = {
      instances: Object.fromEntries(
        shards.map((s) => [
          s.id,
          {
            id: s.id,
            addr: s.address,
            zone: s.zone,
            state: 'ACTIVE' as const,
            tokens: s.tokens,
            heartbeatMs: Date.now(),
            registeredMs: Date.now(),
          },
        ]),
      ),
    };
    const ring = new Ring(desc, { replicationFactor: 1, heartbeatTimeoutMs: 0 });
    for (let i = 0; i < STREAMS; i++) {
      // The distributor adds service_name (from `app`) before the token is taken.
      const text = labelsToString(labelsFromRecord({ ...podLabels(i), service_name: 'shop' }));
      const owner = ring.writeSet(tokenFor(TENANT, text)).instances[0].id;
      owned.set(owner, [...(owned.get(owner) ?? []), i]);
    }
    expect([...owned.keys()].sort()).toEqual(['pattern-1', 'pattern-2']);

    const streams = Array.from({ length: STREAMS }, (_, i) => ({
      stream: podLabels(i),
      values: linesOf(i).map((line, j) => [String(t0 + BigInt(i * 100 + j) * 1_000_000n), line]),
    }));
    expect(await push(distributor, streams)).toEqual({ status: 204, body: '' });

    // The tee flushes every second.
    const all = await eventually(async () => {
      const p = await patterns(querier);
      return p.totals[LOGIN] === STREAMS * LOGINS_PER_STREAM ? p : undefined;
    }, 'both patterns counted');
    expect(all.totals).toEqual({
      [LOGIN]: STREAMS * LOGINS_PER_STREAM,
      [ORDER]: STREAMS * ORDERS_PER_STREAM,
    });

    // Each pattern ingester holds exactly its share: its streams, two patterns in each.
    for (const m of patternIngesters) {
      const mine = owned.get(m.name) ?? [];
      expect(await memberMetric(m, 'logsvc_pattern_ingester_streams')).toBe(mine.length);
      expect(
        await memberMetric(m, 'loki_pattern_ingester_patterns_detected_total', {
          tenant: TENANT,
          format: 'unknown',
        }),
      ).toBe(2 * mine.length);
    }
    // The distributor's tee: every stream batched, one append to each pattern ingester.
    expect(
      await memberMetric(distributor, 'loki_pattern_ingester_teed_streams_total', {
        status: 'batched',
      }),
    ).toBe(STREAMS);
    for (const m of patternIngesters) {
      expect(
        await memberMetric(distributor, 'loki_pattern_ingester_appends_total', {
          ingester: `127.0.0.1:${m.grpcPort}`,
          status: 'success',
        }),
      ).toBe(1);
    }
  }, 60_000);

  it('keeps accepting pushes when a pattern ingester dies; queries fail until its heartbeat expires, then answer from the survivor', async () => {
    const [survivor, dead] = patternIngesters;
    await dead.process.kill9();

    // The push path never waits for, nor fails with, the pattern ingesters.
    const after = Array.from({ length: 10 }, (_, i) => ({
      stream: { app: 'after', pod: `pod-${i}` },
      values: [[String(nowNs()), `user a${i} logged in from host h${i}`]],
    }));
    expect(await push(distributor, after)).toEqual({ status: 204, body: '' });

    // Still healthy in the ring: the querier asks it and the query fails, as Loki's does.
    const failed = await patterns(querier);
    expect(failed.status).toBe(503);
    expect(failed.text).toContain(`rpc to 127.0.0.1:${dead.grpcPort} failed`);

    // The tee's batches for the dead one fail, counted and dropped.
    await eventually(
      async () =>
        ((await memberMetric(distributor, 'loki_pattern_ingester_appends_total', {
          ingester: `127.0.0.1:${dead.grpcPort}`,
          status: 'fail',
        })) ?? 0) >= 1
          ? true
          : undefined,
      'a failed append to the dead pattern ingester',
    );

    // Once its heartbeat is older than 4s it is UNHEALTHY and left out: the survivor's share.
    await eventually(async () => {
      const { shards } = await ringPage(survivor, '/pattern/ring');
      return shards.find((s) => s.id === dead.name)?.state === 'UNHEALTHY' ? true : undefined;
    }, 'the dead pattern ingester UNHEALTHY');
    const mine = owned.get(survivor.name)?.length ?? 0;
    const partial = await eventually(async () => {
      const p = await patterns(querier);
      return p.status === 200 ? p : undefined;
    }, 'patterns from the survivor');
    expect(partial.totals).toEqual({
      [LOGIN]: mine * LOGINS_PER_STREAM,
      [ORDER]: mine * ORDERS_PER_STREAM,
    });
    expect(await push(distributor, after)).toEqual({ status: 204, body: '' });
  }, 60_000);
});
