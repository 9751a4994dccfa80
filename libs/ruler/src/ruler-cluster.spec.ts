import type { RuleGroupJson } from '@logsvc/api';
import type { InstanceDesc } from '@logsvc/ring';
import { describe, expect, it } from 'vitest';
import {
  clusterRuleGroups,
  groupsOwnedInRing,
  ringMembership,
  type RulerRing,
} from './ruler-cluster';
import type { OwnedGroup } from './manager';

const member = (id: string, healthy = true): InstanceDesc & { healthy: boolean } =>
  ({
    id,
    addr: `${id}:9095`,
    zone: '',
    state: 'ACTIVE',
    tokens: [],
    heartbeatMs: 0,
    registeredMs: 0,
    healthy,
  }) as InstanceDesc & { healthy: boolean };

/** A ring of `members`; `owner` decides who gets a token (throws for none). */
function ringOf(
  members: Array<InstanceDesc & { healthy: boolean }>,
  owner: (token: number) => InstanceDesc | undefined = () => members[0],
): RulerRing {
  return {
    instances: () => members,
    isHealthy: (i) => members.find((m) => m.id === i.id)?.healthy ?? false,
    allHealthy: () => members.filter((m) => m.healthy),
    get: (token) => {
      const o = owner(token);
      if (!o) throw new Error('empty ring');
      return { instances: [o], maxErrors: 0, maxUnavailableZones: 0 } as never;
    },
  };
}

const group = (file: string, name: string): RuleGroupJson => ({
  file,
  name,
  rules: [],
  interval: 60,
  limit: 0,
  lastEvaluation: '',
  evaluationTime: 0,
});

describe('ruler cluster behaviour', () => {
  it('lists every healthy ruler’s groups with its own, sorted by file then name', async () => {
    const ring = ringOf([member('a'), member('b'), member('c', false)]);
    const asked: string[] = [];
    const out = await clusterRuleGroups([group('ns2', 'x')], 'a', ring, async (peer) => {
      asked.push(peer.id);
      return [group('ns1', 'z'), group('ns2', 'a')];
    });
    expect(asked).toEqual(['b']);
    expect(out.map((g) => `${g.file}/${g.name}`)).toEqual(['ns1/z', 'ns2/a', 'ns2/x']);
  });

  it('fails the whole listing when one ruler does not answer, naming its address', async () => {
    const ring = ringOf([member('a'), member('b')]);
    await expect(
      clusterRuleGroups([], 'a', ring, () => Promise.reject(new Error('connection refused'))),
    ).rejects.toThrow('unable to retrieve rules from ruler b:9095: connection refused');
  });

  it('keeps the groups the ring gives this ruler, none when the ring has no owner', () => {
    const groups: OwnedGroup[] = ['g1', 'g2'].map((name) => ({
      tenant: 't',
      namespace: 'ns',
      group: { name, rules: [] } as never,
    }));
    const a = member('a');
    expect(groupsOwnedInRing(groups, 'a', ringOf([a]))).toHaveLength(2);
    expect(groupsOwnedInRing(groups, 'b', ringOf([a]))).toHaveLength(0);
    expect(
      groupsOwnedInRing(
        groups,
        'a',
        ringOf([a], () => undefined),
      ),
    ).toHaveLength(0);
  });

  it('changes its membership text when a ruler turns unhealthy', () => {
    const b = member('b');
    const members = [member('a'), b];
    const ring = ringOf(members);
    const before = ringMembership(ring);
    b.healthy = false;
    expect(ringMembership(ring)).not.toBe(before);
    expect(before).toBe('a:ACTIVE:true,b:ACTIVE:true');
  });
});
