// Exactly one active compactor in a cluster: three `-target=compactor` processes share the
// store and an etcd compactor ring; only the owner of key 0 compacts and processes delete
// requests. Killed with SIGKILL, the leader stays in the ring, unhealthy, so no compactor runs
// until the others forget it (10 heartbeat timeouts, as Loki); then one of them takes over and
// processes the delete request that was waiting.
import { FilesystemObjectClient } from '@logsvc/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type Member, memberMetric, ringPage } from '../support/cluster';
import { nowNs, pushOk } from '../support/loki-api';
import { eventually } from '../support/server';
import { linesInChunkObjects } from '../support/store-reader';

// Heartbeats every 500 ms against a 3 s timeout: a leader stays healthy through a 2.5 s stall of
// a loaded machine, and the kill test still forgets the dead leader in 30 s.
const HEARTBEAT_TIMEOUT_S = 3;
const HEARTBEAT_PERIOD_MS = 500;

/** `loki_boltdb_shipper_compactor_running` of each member, in order. */
function running(members: readonly Member[]): Promise<Array<number | undefined>> {
  return Promise.all(members.map((m) => memberMetric(m, 'loki_boltdb_shipper_compactor_running')));
}

/** Successful compaction runs of `member` so far. */
async function compactionRuns(member: Member): Promise<number> {
  const name = 'loki_boltdb_shipper_compact_tables_operation_total';
  return (await memberMetric(member, name, { status: 'success' })) ?? 0;
}

async function createDelete(member: Member, query: string): Promise<string> {
  const params = new URLSearchParams({ query, start: String(Math.floor(Date.now() / 1000) - 600) });
  const res = await fetch(`${member.process.url}/loki/api/v1/delete?${params}`, {
    method: 'POST',
  });
  expect(res.status).toBe(204);
  const listed = (await (await fetch(`${member.process.url}/loki/api/v1/delete`)).json()) as Array<{
    request_id: string;
    query: string;
  }>;
  return listed.find((r) => r.query === query)!.request_id;
}

async function status(member: Member, requestId: string): Promise<string | undefined> {
  const listed = (await (await fetch(`${member.process.url}/loki/api/v1/delete`)).json()) as Array<{
    request_id: string;
    status: string;
  }>;
  return listed.find((r) => r.request_id === requestId)?.status;
}

describe('compactors in a cluster (three on one etcd ring, heartbeat timeout 3s)', () => {
  let cluster: EtcdCluster;
  let writer: Member;
  let compactors: Member[];
  let leader: Member;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      config: {
        common: {
          ring: {
            heartbeat_period: `${HEARTBEAT_PERIOD_MS}ms`,
            heartbeat_timeout: `${HEARTBEAT_TIMEOUT_S}s`,
          },
        },
        compactor: {
          retention_enabled: true,
          compaction_interval: '1s',
          retention_delete_delay: '0s',
          delete_request_cancel_period: '3s',
        },
      },
    });
    writer = await cluster.add('write-1', 'write');
    compactors = [];
    for (const name of ['compactor-1', 'compactor-2', 'compactor-3'])
      compactors.push(await cluster.add(name, 'compactor'));
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it('lists the members in /compactor/ring and runs exactly one of them', async () => {
    const shards = await eventually(async () => {
      const s = (await ringPage(compactors[0], '/compactor/ring')).shards;
      return s.length === 3 && s.every((x) => x.state === 'ACTIVE' && x.healthy) ? s : undefined;
    }, 'three healthy members in the compactor ring');
    expect(shards.map((s) => [s.id, s.num_tokens])).toEqual([
      ['compactor-1', 1],
      ['compactor-2', 1],
      ['compactor-3', 1],
    ]);
    // Every member sees the same ring (once its watch has delivered the last join).
    const ids = JSON.stringify(shards.map((s) => s.id));
    for (const m of compactors.slice(1))
      await eventually(
        async () =>
          JSON.stringify((await ringPage(m, '/compactor/ring')).shards.map((s) => s.id)) === ids
            ? true
            : undefined,
        `${m.name} to see every member`,
      );
    // The leader owns key 0: the member with the smallest token.
    const owner = [...shards].sort((a, b) => a.tokens[0] - b.tokens[0])[0];
    // Settled: the owner runs, the others idle. The gauges are set at the start of each 1 s
    // round, so until every member has run a round on the full ring they may still show an
    // earlier leader (even none at all for a moment): wait for the owner's, not just any one.
    await eventually(async () => {
      const r = await running(compactors);
      return compactors.every((m, i) => r[i] === (m.name === owner.id ? 1 : 0)) ? true : undefined;
    }, `${owner.id} (the owner of key 0) running and the others idle`);
    // It stays so over several compaction intervals.
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 500));
      expect((await running(compactors)).sort()).toEqual([0, 0, 1]);
    }
    const r = await running(compactors);
    leader = compactors[r.indexOf(1)];
    // Members that led before the others joined (compactor-1 alone at first) ran then; from
    // now on only the leader does.
    const runsBefore = await Promise.all(compactors.map(compactionRuns));
    await new Promise((res) => setTimeout(res, 3000));
    const runsAfter = await Promise.all(compactors.map(compactionRuns));
    for (const [i, m] of compactors.entries()) {
      if (m === leader) expect(runsAfter[i]).toBeGreaterThan(runsBefore[i]);
      else expect(runsAfter[i]).toBe(runsBefore[i]);
    }
    expect(leader.name).toBe(owner.id);
  }, 60_000);

  it('processes a delete request once, on the leader only', async () => {
    const t = nowNs() - 60_000_000_000n;
    await pushOk(writer.process.url, [
      {
        stream: { app: 'api' },
        values: [
          [String(t), 'user=alice ok'],
          [String(t + 1n), 'user=bob secret'],
          [String(t + 2n), 'user=carol token'],
        ],
      },
    ]);
    expect((await fetch(`${writer.process.url}/flush`, { method: 'POST' })).status).toBe(204);
    const chunks = new FilesystemObjectClient(cluster.chunksDir);
    expect(await linesInChunkObjects(chunks)).toEqual([
      'user=alice ok',
      'user=bob secret',
      'user=carol token',
    ]);

    // Asked of a member that is not the leader: the requests live in the shared store.
    const follower = compactors.find((m) => m !== leader)!;
    const id = await createDelete(follower, '{app="api"} |= "bob"');
    await eventually(
      async () => ((await status(leader, id)) === 'processed' ? true : undefined),
      'the delete request to be processed',
    );
    await eventually(
      async () =>
        (await linesInChunkObjects(chunks)).includes('user=bob secret') ? undefined : true,
      'the rewritten chunk to replace the old one',
    );
    expect(await linesInChunkObjects(chunks)).toEqual(['user=alice ok', 'user=carol token']);

    const processed = 'loki_compactor_delete_requests_processed_total';
    for (const m of compactors) {
      const isLeader = m === leader;
      expect(await memberMetric(m, processed, { user: 'fake' })).toBe(isLeader ? 1 : undefined);
      expect(await memberMetric(m, 'loki_compactor_deleted_lines', { user: 'fake' })).toBe(
        isLeader ? 1 : undefined,
      );
    }
  }, 60_000);

  it('after a kill -9 of the leader, another takes over once the dead one is forgotten, and processes the pending request', async () => {
    const survivors = compactors.filter((m) => m !== leader);
    const id = await createDelete(survivors[0], '{app="api"} |= "carol"');
    await leader.process.kill9();
    const killedAt = Date.now();

    // Out of its cancel period and nobody processing it: every survivor reports it pending,
    // and no survivor runs while the dead leader still owns key 0 (unhealthy).
    await eventually(async () => {
      const pending = await Promise.all(
        survivors.map((m) => memberMetric(m, 'loki_compactor_pending_delete_requests_count')),
      );
      return pending.every((p) => p === 1) ? true : undefined;
    }, 'the request to show as pending on the survivors');
    expect(await running(survivors)).toEqual([0, 0]);
    expect(await status(survivors[0], id)).toBe('received');
    await eventually(async () => {
      const dead = (await ringPage(survivors[0], '/compactor/ring')).shards.find(
        (s) => s.id === leader.name,
      );
      return dead && !dead.healthy ? true : undefined;
    }, 'the killed leader to be unhealthy in the ring');
    expect(await status(survivors[0], id)).toBe('received');

    // Forgotten after 10 heartbeat timeouts; then the owner of key 0 among the survivors runs.
    await eventually(
      async () => ((await status(survivors[0], id)) === 'processed' ? true : undefined),
      'a survivor to process the request',
      60_000,
    );
    // Forgotten 10 timeouts after its last heartbeat, which came up to a period before the kill.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(
      10 * HEARTBEAT_TIMEOUT_S * 1000 - HEARTBEAT_PERIOD_MS,
    );
    expect((await ringPage(survivors[0], '/compactor/ring')).shards.map((s) => s.id)).toEqual(
      survivors.map((m) => m.name),
    );
    const r = await running(survivors);
    expect([...r].sort()).toEqual([0, 1]);
    const newLeader = survivors[r.indexOf(1)];
    expect(
      await memberMetric(newLeader, 'loki_compactor_delete_requests_processed_total', {
        user: 'fake',
      }),
    ).toBe(1);
    expect(
      await memberMetric(
        survivors.find((m) => m !== newLeader)!,
        'loki_compactor_delete_requests_processed_total',
        { user: 'fake' },
      ),
    ).toBe(undefined);
    const chunks = new FilesystemObjectClient(cluster.chunksDir);
    await eventually(
      async () =>
        (await linesInChunkObjects(chunks)).includes('user=carol token') ? undefined : true,
      'the rewritten chunk to replace the old one',
    );
    expect(await linesInChunkObjects(chunks)).toEqual(['user=alice ok']);
    await eventually(async () => {
      const p = await memberMetric(newLeader, 'loki_compactor_pending_delete_requests_count');
      return p === 0 ? true : undefined;
    }, 'no pending request left');
  }, 120_000);
});
