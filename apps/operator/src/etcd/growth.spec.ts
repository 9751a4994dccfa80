import { describe, expect, it } from 'vitest';
import { etcdPeerUrl } from '@logsvc/operator-render';
import { decideEtcd, needsMembers, observedFlags, type EtcdMember } from './growth';

const peerUrl = (i: number, tls = false) => etcdPeerUrl({ name: 'logs' }, i, tls);
const started = (i: number): EtcdMember => ({ name: `logs-etcd-${i}`, peerURLs: [peerUrl(i)] });
const base = { desired: 3, peerTls: false, name: 'logs-etcd', peerUrl };

describe('decideEtcd', () => {
  it('starts a new etcd with every member at once, and keeps a full one as it is', () => {
    expect(decideEtcd(base)).toEqual({
      kind: 'Steady',
      plan: { members: 3, initialClusterState: 'new', peerTls: false },
    });
    const full = {
      replicas: 3,
      readyReplicas: 3,
      initialClusterState: 'existing' as const,
      peerTls: false,
    };
    expect(needsMembers(3, full)).toBe(false);
    expect(decideEtcd({ ...base, set: full })).toEqual({
      kind: 'Steady',
      plan: { members: 3, initialClusterState: 'existing', peerTls: false },
    });
    // More members than the spec (the webhook refuses shrinking): kept.
    expect(decideEtcd({ ...base, desired: 1, set: full }).plan.members).toBe(3);
  });

  it('grows 1 to 3 one member at a time, each added once the others are Ready', () => {
    const one = {
      replicas: 1,
      readyReplicas: 1,
      initialClusterState: 'new' as const,
      peerTls: false,
    };
    expect(needsMembers(3, one)).toBe(true);
    const add1 = decideEtcd({ ...base, set: one, members: { ok: true, members: [started(0)] } });
    expect(add1).toEqual({
      kind: 'Add',
      plan: { members: 2, initialClusterState: 'existing', partition: 1, peerTls: false },
      peerUrl: peerUrl(1),
      member: 'logs-etcd-1',
      reason: 'growing the managed etcd from 1 to 3 members: adding logs-etcd-1',
    });
    // Added, but the StatefulSet was not scaled yet (the operator stopped in between).
    const added = {
      ok: true as const,
      members: [started(0), { name: '', peerURLs: [peerUrl(1)] }],
    };
    expect(decideEtcd({ ...base, set: one, members: added })).toMatchObject({
      kind: 'Wait',
      plan: { members: 2, initialClusterState: 'existing', partition: 1 },
      reason: expect.stringContaining('logs-etcd-1 was added, starting its pod'),
    });
    // Scaled to 2: member 1 not started yet, then started but its pod not Ready.
    const two = {
      replicas: 2,
      readyReplicas: 1,
      initialClusterState: 'existing' as const,
      peerTls: false,
    };
    const wait = decideEtcd({ ...base, set: two, members: added });
    expect(wait).toMatchObject({
      kind: 'Wait',
      plan: { members: 2, initialClusterState: 'existing', partition: 1 },
      reason:
        'growing the managed etcd from 2 to 3 members: waiting for its 2 members to be started and Ready before adding logs-etcd-2',
    });
    const both = { ok: true as const, members: [started(0), started(1)] };
    expect(decideEtcd({ ...base, set: two, members: both }).kind).toBe('Wait');
    const add2 = decideEtcd({ ...base, set: { ...two, readyReplicas: 2 }, members: both });
    expect(add2).toMatchObject({
      kind: 'Add',
      plan: { members: 3, initialClusterState: 'existing', partition: 2 },
      peerUrl: peerUrl(2),
    });
  });

  it('waits, changing nothing, while the member list cannot be read or disagrees', () => {
    const one = {
      replicas: 1,
      readyReplicas: 1,
      initialClusterState: 'new' as const,
      peerTls: false,
    };
    expect(
      decideEtcd({ ...base, set: one, members: { ok: false, error: 'connection refused' } }),
    ).toEqual({
      kind: 'Wait',
      plan: { members: 1, initialClusterState: 'new', peerTls: false },
      reason:
        'growing the managed etcd from 1 to 3 members: reading its member list: connection refused',
    });
    const odd = { ok: true as const, members: [started(0), started(5), started(6)] };
    expect(decideEtcd({ ...base, set: one, members: odd })).toMatchObject({
      kind: 'Wait',
      plan: { members: 1 },
      reason: expect.stringContaining('the member list has 3 members and the StatefulSet 1'),
    });
  });

  it('talks TLS between the members of a new etcd with spec.tls, and keeps what a set has', () => {
    expect(decideEtcd({ ...base, peerTls: true }).plan.peerTls).toBe(true);
    // Grown over TLS: the added member's peer URL is https.
    const one = { replicas: 1, readyReplicas: 1, initialClusterState: 'new' as const };
    const tlsOne = { ...one, peerTls: true };
    const members = {
      ok: true as const,
      members: [{ ...started(0), peerURLs: [peerUrl(0, true)] }],
    };
    expect(decideEtcd({ ...base, set: tlsOne, members })).toMatchObject({
      kind: 'Add',
      plan: { members: 2, peerTls: true },
      peerUrl: 'https://logs-etcd-1.logs-etcd-headless:2380',
    });
    // spec.tls switched on for a running plaintext etcd: its member list keeps http peer URLs,
    // so its members keep plaintext between them (its client port takes TLS).
    const plain = { ...one, peerTls: false };
    const grown = decideEtcd({
      ...base,
      peerTls: true,
      set: plain,
      members: { ok: true, members: [started(0)] },
    });
    expect(grown).toMatchObject({ plan: { peerTls: false }, peerUrl: peerUrl(1) });
  });

  it('reads the initial cluster state and the peer scheme from the applied command', () => {
    expect(
      observedFlags([
        'etcd',
        '--initial-cluster-state=existing',
        '--listen-peer-urls=https://0.0.0.0:2380',
      ]),
    ).toEqual({ initialClusterState: 'existing', peerTls: true });
    expect(
      observedFlags([
        'etcd',
        '--initial-cluster-state=new',
        '--listen-peer-urls=http://0.0.0.0:2380',
      ]),
    ).toEqual({ initialClusterState: 'new', peerTls: false });
    expect(observedFlags(undefined)).toEqual({ initialClusterState: 'new', peerTls: false });
  });
});
