// Rule groups sharded over the ruler ring: three `-target=ruler` processes on one etcd ring
// share a rule store (the `filesystem` object layout in one directory) and a `write` process
// holds the data the rules query. Every group is evaluated by exactly one ruler, every ruler
// gets a share, and every ruler's /prometheus/api/v1/rules lists the whole cluster's groups;
// after one ruler is killed (-9) its groups move to the other two, still each evaluated
// exactly once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AlertsResponse, RulesResponse } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type Member, ringPage } from '../support/cluster';
import { pushOk } from '../support/loki-api';
import { eventually } from '../support/server';

/** Enough groups that each of three rulers owns some (a ruler left out: p ≈ 3·(2/3)^30). */
const GROUPS = Array.from({ length: 30 }, (_, i) => ({
  namespace: `team-${i % 3}`,
  name: `group-${i}`,
}));
const KEYS = GROUPS.map((g) => `${g.namespace};${g.name}`).sort();

function groupYaml(name: string, i: number): string {
  return i % 2 === 0
    ? `name: ${name}
interval: 1s
rules:
  - record: ring:lines:count1m
    expr: sum(count_over_time({app="ring"}[1m]))
`
    : `name: ${name}
interval: 1s
rules:
  - alert: RingLines
    expr: sum(count_over_time({app="ring"}[1m])) > 0
`;
}

/** `namespace;group` of every group a ruler lists (the cluster's), with each rule's health. */
async function listed(m: Member): Promise<Map<string, string[]>> {
  const res = await fetch(`${m.process.url}/prometheus/api/v1/rules`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as RulesResponse;
  return new Map(
    (body.data?.groups ?? []).map((g) => [
      `${g.file};${g.name}`,
      g.rules.map((r) => (r.health === 'err' ? `err ${r.lastError}` : r.health)),
    ]),
  );
}

/** `loki_prometheus_rule_evaluations_total` by `namespace;group`. */
async function evaluations(m: Member): Promise<Map<string, number>> {
  const text = await (await fetch(`${m.process.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const match of text.matchAll(
    /^loki_prometheus_rule_evaluations_total\{[^}]*rule_group="([^"]+)"[^}]*\} (\S+)$/gm,
  ))
    out.set(match[1], Number(match[2]));
  return out;
}

/** For every group, the rulers whose evaluation count grew over `ms`. */
async function evaluators(rulers: Member[], ms: number): Promise<Map<string, string[]>> {
  const before = await Promise.all(rulers.map(evaluations));
  await new Promise((r) => setTimeout(r, ms));
  const after = await Promise.all(rulers.map(evaluations));
  const out = new Map<string, string[]>(KEYS.map((k) => [k, []]));
  rulers.forEach((m, i) => {
    for (const [key, n] of after[i]) if (n > (before[i].get(key) ?? 0)) out.get(key)?.push(m.name);
  });
  return out;
}

/**
 * Which ruler evaluates each group, once every group is evaluated by exactly one of `rulers`
 * (its evaluation count grows there and nowhere else) and every ruler evaluates some.
 */
async function partitioned(rulers: Member[]): Promise<Map<string, string>> {
  return eventually(
    async () => {
      const by = await evaluators(rulers, 2500);
      const wrong = [...by].filter(([, names]) => names.length !== 1);
      // Thrown, so that a timeout reports the last state.
      if (wrong.length > 0) throw new Error(`not evaluated once: ${JSON.stringify(wrong)}`);
      const owner = new Map([...by].map(([key, names]) => [key, names[0]]));
      const idle = rulers.filter((m) => ![...owner.values()].includes(m.name));
      if (idle.length > 0) throw new Error(`idle: ${idle.map((m) => m.name).join()}`);
      return owner;
    },
    `the ${KEYS.length} groups split over ${rulers.map((r) => r.name).join(', ')}`,
    60_000,
  );
}

/** Every ruler's `/prometheus/api/v1/rules` lists the whole cluster's groups, healthy. */
async function listsEveryGroup(rulers: Member[]): Promise<void> {
  for (const m of rulers) {
    await eventually(
      async () => {
        const groups = await listed(m);
        const text = [...groups].map(([k, h]) => `${k}(${h.join()})`).join(' ');
        const healthy = [...groups.values()].every((h) => h.every((x) => x === 'ok'));
        if (groups.size !== KEYS.length || !healthy) throw new Error(text);
        expect([...groups.keys()]).toEqual(KEYS);
        return true;
      },
      `${m.name} listing the ${KEYS.length} groups of the cluster`,
      30_000,
    );
  }
}

describe('ruler ring: rule groups sharded over three rulers', () => {
  let cluster: EtcdCluster;
  let write: Member;
  const rulers: Member[] = [];

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      config: {
        ruler: {
          evaluation_interval: '1s',
          poll_interval: '1s',
          storage: { type: 'filesystem', filesystem: { directory: '' } },
          ring: { heartbeat_period: '1s', heartbeat_timeout: '3s' },
        },
      },
    });
    const rulesDir = join(cluster.root, 'rules');
    mkdirSync(rulesDir);
    write = await cluster.add('write-1', 'write');
    for (const name of ['ruler-1', 'ruler-2', 'ruler-3'])
      rulers.push(
        await cluster.add(name, 'ruler', {
          config: { ruler: { storage: { filesystem: { directory: rulesDir } } } },
        }),
      );
  });

  afterAll(() => cluster?.dispose());

  it('lists the three rulers ACTIVE on /ruler/ring', async () => {
    for (const m of rulers) {
      const ring = await eventually(async () => {
        const r = await ringPage(m, '/ruler/ring');
        return r.shards.length === 3 && r.shards.every((s) => s.state === 'ACTIVE') ? r : undefined;
      }, `three rulers on ${m.name}'s /ruler/ring`);
      expect(ring.shards.map((s) => [s.id, s.state])).toEqual([
        ['ruler-1', 'ACTIVE'],
        ['ruler-2', 'ACTIVE'],
        ['ruler-3', 'ACTIVE'],
      ]);
      expect(ring.shards.every((s) => s.num_tokens === 128)).toBe(true);
    }
  });

  it('evaluates every group on exactly one ruler, using every ruler', async () => {
    await pushOk(write.process.url, [
      { stream: { app: 'ring' }, values: [[`${Date.now()}000000`, 'a line']] },
    ]);
    // Groups are written through different rulers: they all share one store.
    for (const [i, g] of GROUPS.entries()) {
      const res = await fetch(
        `${rulers[i % 3].process.url}/loki/api/v1/rules/${encodeURIComponent(g.namespace)}`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/yaml' },
          body: groupYaml(g.name, i),
        },
      );
      expect(res.status).toBe(202);
    }

    const owner = await partitioned(rulers);
    expect([...owner.keys()].sort()).toEqual(KEYS);
    expect(new Set(owner.values())).toEqual(new Set(['ruler-1', 'ruler-2', 'ruler-3']));
    // It stays so.
    const again = await evaluators(rulers, 3000);
    for (const key of KEYS) expect([key, again.get(key)]).toEqual([key, [owner.get(key)]]);

    // Each ruler answers with the whole cluster's groups, as Loki's (GetRules over gRPC).
    await listsEveryGroup(rulers);
    const alerts = await fetch(`${rulers[0].process.url}/prometheus/api/v1/alerts`);
    const firing = (await alerts.json()) as AlertsResponse;
    // One RingLines alert per alerting group (15), wherever it is evaluated.
    expect(firing.data?.alerts.filter((a) => a.labels.alertname === 'RingLines')).toHaveLength(15);
  });

  it('moves a killed ruler’s groups to the others, each still evaluated once', async () => {
    const [victim, ...survivors] = rulers;
    const before = await partitioned(rulers);
    const moved = KEYS.filter((k) => before.get(k) === victim.name);
    expect(moved.length).toBeGreaterThan(0);
    await victim.process.kill9();

    // Past heartbeat_timeout it is UNHEALTHY; past twice that the survivors forget it (Loki's
    // auto-forget), and the ring has two members.
    await eventually(
      async () => {
        const ring = await ringPage(survivors[0], '/ruler/ring');
        return ring.shards.map((s) => s.id).join() === 'ruler-2,ruler-3' ? true : undefined;
      },
      'ruler-1 forgotten from the ruler ring',
      30_000,
    );

    const after = await partitioned(survivors);
    expect([...after.keys()].sort()).toEqual(KEYS);
    // Groups that were not on the killed ruler stay where they were.
    for (const key of KEYS)
      if (before.get(key) !== victim.name) expect(after.get(key)).toBe(before.get(key));
    const again = await evaluators(survivors, 3000);
    for (const key of KEYS) expect([key, again.get(key)]).toEqual([key, [after.get(key)]]);
    await listsEveryGroup(survivors);
  });
});
