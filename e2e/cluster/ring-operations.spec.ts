// Operating a cluster through its ring: the global ingestion rate shared by the distributors,
// /ready of a joining ingester, /ingester/shutdown, and forgetting a dead member from the ring
// page. Heartbeats every 1s, a member silent for 3s is UNHEALTHY.
import type { RingStatusShard } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type Member, startClassicCluster, ringPage } from '../support/cluster';
import { type PushAnswer, pushStreams, queryRange } from '../support/loki-api';
import { eventually } from '../support/server';
import { readStoredEntries } from '../support/store-reader';

const MiB = 1 << 20;
const TENANT = 'fake'; // auth_enabled: false
const LINE = 'x'.repeat(1024);

let nextTs = BigInt(Date.now() - 60_000) * 1_000_000n;

/** Pushes `lines` lines of 1 KiB to one new stream; resolves with the status and body. */
function push(distributor: Member, lines: number, job = 'rate'): Promise<PushAnswer> {
  const stream = `s${nextTs}`;
  const values = Array.from({ length: lines }, () => [String(nextTs++), LINE]);
  return pushStreams(distributor.process.url, [{ stream: { job, stream }, values }]);
}

/** Pushes 64 KiB at a time until the distributor answers 429; resolves with that answer. */
async function drain(distributor: Member): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const { status, body } = await push(distributor, 64);
    if (status === 429) return body;
    expect(status).toBe(204);
  }
  throw new Error(`${distributor.name} never answered 429`);
}

const limitMessage = (bytesPerSec: number) =>
  `Ingestion rate limit exceeded for user ${TENANT} (limit: ${bytesPerSec} bytes/sec) while attempting to ingest '64' lines totaling '65536' bytes, reduce log volume or contact your Loki administrator to see if the limit can be increased\n`;

async function ring(member: Member, path = '/ring'): Promise<RingStatusShard[]> {
  return [...(await ringPage(member, path)).shards];
}

const states = (shards: readonly RingStatusShard[]) => shards.map((s) => [s.id, s.state]);

describe('operating a cluster through its rings (heartbeat timeout 3s)', () => {
  let cluster: EtcdCluster;
  let ingesters: Member[];
  let distributors: Member[];
  let querier: Member;

  beforeAll(async () => {
    ({ cluster, ingesters, distributors, querier } = await startClassicCluster({
      replicationFactor: 3,
      config: {
        // Each ring's own key (the ingester's and the distributor's), not common.ring.
        ingester: { lifecycler: { ring: { heartbeat_timeout: '3s' } } },
        distributor: { ring: { heartbeat_timeout: '3s' } },
        // No detected_level metadata: a push counts exactly its lines' bytes.
        limits_config: {
          ingestion_rate_mb: 1,
          ingestion_burst_size_mb: 1,
          discover_log_levels: false,
        },
      },
    }));
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it('splits the global ingestion rate over the healthy distributors, and gives it all to the last one', async () => {
    expect(states(await ring(distributors[0], '/distributor/ring'))).toEqual([
      ['distributor-1', 'ACTIVE'],
      ['distributor-2', 'ACTIVE'],
    ]);
    // Each of the two enforces half of 1 MiB/s, and says so.
    for (const d of distributors) {
      expect(await drain(d)).toBe(limitMessage(MiB / 2));
      // Refilled for 1s at 512 KiB/s (plus less than 64 KiB left over): 768 KiB is too much.
      await new Promise((r) => setTimeout(r, 1000));
      expect((await push(d, 768)).status).toBe(429);
    }

    await distributors[1].process.kill9();
    await eventually(async () => {
      const shards = await ring(distributors[0], '/distributor/ring');
      return shards.find((s) => s.id === 'distributor-2')?.state === 'UNHEALTHY' ? true : undefined;
    }, 'distributor-2 UNHEALTHY in the distributor ring');
    // The survivor enforces the whole 1 MiB/s: 768 KiB fit in 1s of refill.
    expect(await drain(distributors[0])).toBe(limitMessage(MiB));
    await new Promise((r) => setTimeout(r, 1000));
    expect(await push(distributors[0], 768)).toEqual({ status: 204, body: '' });
  }, 60_000);

  it('answers /ready of a joining ingester with 503 "Ingester not ready" until it is ACTIVE', async () => {
    const joining = await cluster.add('ingester-4', 'ingester', {
      config: { ingester: { lifecycler: { join_after: '2s', final_sleep: '2s' } } },
      waitReady: false,
    });
    ingesters.push(joining);
    const notReady: string[] = [];
    let pendingInRing = false;
    await eventually(
      async () => {
        const res = await fetch(`${joining.process.url}/ready`);
        const body = await res.text();
        if (res.status === 200) return true;
        if (body.startsWith('Ingester not ready')) {
          notReady.push(body);
          const shard = (await ring(querier)).find((s) => s.id === 'ingester-4');
          if (shard?.state === 'PENDING') pendingInRing = true;
        }
        return undefined;
      },
      'ingester-4 ready',
      30_000,
    );
    expect(notReady.length).toBeGreaterThan(5); // about 2s of polls every 100ms
    // PENDING until join_after, then JOINING with its tokens for the moment before ACTIVE: a
    // poll can land in either.
    const noTokens = 'Ingester not ready: this instance owns no tokens\n';
    expect(notReady).toContain(noTokens);
    for (const body of notReady) {
      expect(body).toMatch(
        /^Ingester not ready: (this instance owns no tokens|instance 127\.0\.0\.1:\d+ in state JOINING)\n$/,
      );
    }
    expect(pendingInRing).toBe(true);
    expect((await ring(querier)).find((s) => s.id === 'ingester-4')?.state).toBe('ACTIVE');
  }, 60_000);

  it('/ingester/shutdown?terminate=true: LEAVING, flushed, out of the ring, process exited', async () => {
    const leaving = ingesters[3];
    const from = nextTs;
    for (let i = 0; i < 20; i++)
      expect((await push(distributors[0], 4, 'shutdown')).status).toBe(204);
    const through = nextTs;
    const stored = () =>
      readStoredEntries(
        cluster.root,
        TENANT,
        [{ type: '=', name: 'job', value: 'shutdown' }],
        from,
        through,
      );
    // Nothing flushed yet: the ingesters keep their chunks (and WAL).
    expect(await stored()).toEqual([]);

    const seen = new Set<string>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const shard = (await ring(querier)).find((s) => s.id === 'ingester-4');
        seen.add(shard?.state ?? 'gone');
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    // Pushes go on while it leaves: none may fail, none may be lost.
    const duringFrom = nextTs;
    const statuses: number[] = [];
    const pushing = (async () => {
      while (watching) {
        statuses.push((await push(distributors[0], 4, 'during')).status);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const res = await fetch(`${leaving.process.url}/ingester/shutdown?terminate=true`, {
      method: 'POST',
    });
    expect(res.status).toBe(204);
    expect(await leaving.process.exited()).toBe(0);
    await eventually(
      async () => ((await ring(querier)).some((s) => s.id === 'ingester-4') ? undefined : true),
      'ingester-4 gone from the querier’s ring',
    );
    watching = false;
    await Promise.all([watch, pushing]);
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 204)).toEqual([]);
    const during = await queryRange(querier.process.url, {
      query: '{job="during"}',
      start: duringFrom,
      end: nextTs,
      limit: 5000,
      direction: 'forward',
    });
    const times = during.flatMap((st) => st.entries.map((e) => BigInt(e.ts)));
    expect(times.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(
      Array.from({ length: Number(nextTs - duringFrom) }, (_, i) => duringFrom + BigInt(i)),
    );
    expect(seen.has('LEAVING')).toBe(true);
    expect(seen.has('UNHEALTHY')).toBe(false);
    expect((await ring(distributors[0])).map((s) => s.id)).not.toContain('ingester-4');

    // Its share of the streams (RF 3 of 4 ingesters) is in the store now.
    const entries = await stored();
    expect(entries.length).toBeGreaterThan(0);
    const pushed = new Set(
      Array.from({ length: Number(through - from) }, (_, i) => from + BigInt(i)),
    );
    expect(entries.every((e) => pushed.has(e.timestampNs) && e.line === LINE)).toBe(true);
  }, 60_000);

  it('shows a killed ingester UNHEALTHY with a Forget button; forgetting it removes it for every member', async () => {
    await ingesters[2].process.kill9();
    await eventually(async () => {
      const shard = (await ring(distributors[0])).find((s) => s.id === 'ingester-3');
      return shard?.state === 'UNHEALTHY' ? true : undefined;
    }, 'ingester-3 UNHEALTHY');

    const html = await (await fetch(`${querier.process.url}/ring`)).text();
    const row = /<tr[^>]*>\n<td>ingester-3<\/td>[\s\S]*?<\/tr>/.exec(html)?.[0] ?? '';
    expect(row).toContain('<td>UNHEALTHY</td>');
    expect(row).toContain('<button name="forget" value="ingester-3" type="submit">Forget</button>');
    // Only the dead member can be forgotten.
    expect(html.match(/<button /g)).toHaveLength(1);

    // What the browser sends when the button is pressed.
    const res = await fetch(`${querier.process.url}/ring`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'forget=ingester-3',
    });
    expect(res.status).toBe(200);
    const after = await res.text();
    expect(after).toContain('<td>ingester-1</td>');
    expect(after).not.toContain('ingester-3');

    for (const member of [querier, distributors[0], ingesters[0]]) {
      await eventually(async () => {
        const ids = (await ring(member)).map((s) => s.id);
        return ids.includes('ingester-3') ? undefined : ids;
      }, `ingester-3 gone from ${member.name}’s ring`);
    }
    // Nobody writes it back: three heartbeats later it is still gone.
    await new Promise((r) => setTimeout(r, 3000));
    expect(states(await ring(distributors[0]))).toEqual([
      ['ingester-1', 'ACTIVE'],
      ['ingester-2', 'ACTIVE'],
    ]);
  }, 60_000);
});
