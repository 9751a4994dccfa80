import { describe, expect, it } from 'vitest';
import { Ring, type RingOptions } from './ring';
import { RingError } from './ring-error';
import { ringOf, type MemberSpec } from './testing/ring-fixtures';
import { EMPTY_RING } from './types';

const NOW = 1_000_000;
const TIMEOUT = 60_000;
const STALE = NOW - TIMEOUT - 1;

function ring(members: Record<string, MemberSpec>, options: Partial<RingOptions> = {}): Ring {
  return new Ring(ringOf(members), {
    replicationFactor: 3,
    heartbeatTimeoutMs: TIMEOUT,
    now: () => NOW,
    ...options,
  });
}

const ids = (set: { instances: readonly { id: string }[] }): string[] =>
  set.instances.map((i) => i.id);

// a owns 100, b 200, c 300, d 400, e 500 (fresh heartbeats).
const five = (over: Record<string, Partial<MemberSpec>> = {}): Record<string, MemberSpec> =>
  Object.fromEntries(
    ['a', 'b', 'c', 'd', 'e'].map((id, n) => [
      id,
      { tokens: [(n + 1) * 100], heartbeatMs: NOW, ...over[id] },
    ]),
  );

describe('Ring.writeSet', () => {
  it('takes RF distinct members clockwise from the first token after the key, wrapping', () => {
    const r = ring(five());
    expect(ids(r.writeSet(150))).toEqual(['b', 'c', 'd']);
    // A key equal to a token belongs to the next one.
    expect(ids(r.writeSet(200))).toEqual(['c', 'd', 'e']);
    expect(ids(r.writeSet(450))).toEqual(['e', 'a', 'b']);
    expect(ids(r.writeSet(4_000_000_000))).toEqual(['a', 'b', 'c']);
    expect(r.writeSet(150).maxErrors).toBe(1);
  });

  it('skips further tokens of a member already chosen', () => {
    const r = ring({
      a: { tokens: [100, 150], heartbeatMs: NOW },
      b: { tokens: [200, 250], heartbeatMs: NOW },
      c: { tokens: [300], heartbeatMs: NOW },
    });
    expect(ids(r.writeSet(0))).toEqual(['a', 'b', 'c']);
  });

  it('extends the set past JOINING and LEAVING members, which it does not write to', () => {
    const r = ring(five({ b: { state: 'JOINING' }, c: { state: 'LEAVING' } }));
    // a, b, c, d, e walked: b and c each add one more replica; quorum of 5 is 3.
    const set = r.writeSet(50);
    expect(ids(set)).toEqual(['a', 'd', 'e']);
    expect(set.maxErrors).toBe(0);
  });

  it('fails with the dskit text when too few live replicas remain', () => {
    const r = ring(five({ b: { heartbeatMs: STALE }, c: { heartbeatMs: STALE } }));
    expect(() => r.writeSet(50)).toThrow(RingError);
    expect(() => r.writeSet(50)).toThrow(
      'at least 2 live replicas required, could only find 1 - unhealthy instances: b:9095,c:9095',
    );
    // One dead replica of three is absorbed: the write goes to the two others, none may fail.
    const one = ring(five({ b: { heartbeatMs: STALE } }));
    expect(ids(one.writeSet(50))).toEqual(['a', 'c']);
    expect(one.writeSet(50).maxErrors).toBe(0);
  });

  it('treats a heartbeat timeout of 0 as never expiring', () => {
    const r = ring(five({ a: { heartbeatMs: 0 }, b: { heartbeatMs: 0 } }), {
      heartbeatTimeoutMs: 0,
    });
    expect(ids(r.writeSet(50))).toEqual(['a', 'b', 'c']);
  });

  it('uses every member when RF exceeds the ring, and still needs a quorum of RF', () => {
    const two = ring({
      a: { tokens: [100], heartbeatMs: NOW },
      b: { tokens: [200], heartbeatMs: NOW },
    });
    expect(ids(two.writeSet(0))).toEqual(['a', 'b']);
    expect(two.writeSet(0).maxErrors).toBe(0);
    const single = ring({ a: { tokens: [100], heartbeatMs: NOW } });
    expect(() => single.writeSet(0)).toThrow(
      'at least 2 live replicas required, could only find 1',
    );
    const rf1 = ring({ a: { tokens: [100], heartbeatMs: NOW } }, { replicationFactor: 1 });
    expect(ids(rf1.writeSet(0))).toEqual(['a']);
  });

  it('rejects an empty ring and a ring without tokens', () => {
    expect(() =>
      new Ring(EMPTY_RING, { replicationFactor: 1, heartbeatTimeoutMs: 0 }).writeSet(1),
    ).toThrow(new RingError('empty ring'));
    expect(() => ring({ a: { tokens: [], state: 'PENDING' } }).writeSet(1)).toThrow('empty ring');
  });

  it('lists all healthy members however many are not (dskit GetAllHealthy)', () => {
    const r = ring(five({ b: { heartbeatMs: STALE }, c: { heartbeatMs: STALE } }), {
      replicationFactor: 1,
    });
    expect(r.allHealthy('read').map((i) => i.id)).toEqual(['a', 'd', 'e']);
    expect(() => r.readSet()).toThrow(RingError); // the quorum read refuses
    expect(() =>
      new Ring(EMPTY_RING, { replicationFactor: 1, heartbeatTimeoutMs: 0 }).allHealthy('read'),
    ).toThrow(new RingError('empty ring'));
  });

  it('places replicas in distinct zones when zone-aware', () => {
    const members = {
      a1: { tokens: [100], zone: 'z1', heartbeatMs: NOW },
      a2: { tokens: [200], zone: 'z1', heartbeatMs: NOW },
      b1: { tokens: [300], zone: 'z2', heartbeatMs: NOW },
      b2: { tokens: [400], zone: 'z2', heartbeatMs: NOW },
      c1: { tokens: [500], zone: 'z3', heartbeatMs: NOW },
    };
    expect(ids(ring(members).writeSet(50))).toEqual(['a1', 'a2', 'b1']);
    expect(ids(ring(members, { zoneAwarenessEnabled: true }).writeSet(50))).toEqual([
      'a1',
      'b1',
      'c1',
    ]);
  });

  it('replaces a LEAVING member by another member of its zone when zone-aware', () => {
    const r = ring(
      {
        a1: { tokens: [100], zone: 'z1', heartbeatMs: NOW, state: 'LEAVING' },
        a2: { tokens: [200], zone: 'z1', heartbeatMs: NOW },
        b1: { tokens: [300], zone: 'z2', heartbeatMs: NOW },
        c1: { tokens: [400], zone: 'z3', heartbeatMs: NOW },
      },
      { zoneAwarenessEnabled: true },
    );
    expect(ids(r.writeSet(50))).toEqual(['a2', 'b1', 'c1']);
  });

  it('names zones in the quorum error when zone-aware', () => {
    const r = ring(
      {
        a: { tokens: [100], zone: 'z1', heartbeatMs: STALE },
        b: { tokens: [200], zone: 'z2', heartbeatMs: STALE },
        c: { tokens: [300], zone: 'z3', heartbeatMs: NOW },
      },
      { zoneAwarenessEnabled: true },
    );
    expect(() => r.writeSet(50)).toThrow(
      'at least 2 live replicas required across different availability zones, could only find 1 - unhealthy instances: a:9095,b:9095',
    );
  });
});

describe('Ring.readSet', () => {
  it('asks every healthy member, tolerating RF/2 failures', () => {
    const set = ring(five({ c: { state: 'LEAVING' }, d: { state: 'PENDING' } })).readSet();
    // LEAVING and PENDING members hold data a read needs.
    expect(ids(set)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(set.maxErrors).toBe(1);
  });

  it('leaves out dead and JOINING members and fails past RF/2 of them', () => {
    const one = ring(five({ b: { heartbeatMs: STALE } })).readSet();
    expect(ids(one)).toEqual(['a', 'c', 'd', 'e']);
    expect(one.maxErrors).toBe(0);
    const two = ring(five({ b: { heartbeatMs: STALE }, c: { state: 'JOINING' } }));
    expect(() => two.readSet()).toThrow(new RingError('too many unhealthy instances in the ring'));
  });

  it('when zone-aware, drops whole failed zones and counts the zones left to lose', () => {
    const members = {
      a1: { tokens: [100], zone: 'z1', heartbeatMs: STALE },
      a2: { tokens: [150], zone: 'z1', heartbeatMs: NOW },
      b1: { tokens: [200], zone: 'z2', heartbeatMs: NOW },
      c1: { tokens: [300], zone: 'z3', heartbeatMs: NOW },
    };
    const set = ring(members, { zoneAwarenessEnabled: true }).readSet();
    expect(ids(set)).toEqual(['b1', 'c1']);
    expect(set).toMatchObject({ maxErrors: 0, maxUnavailableZones: 0 });
    const healthy = ring(
      { ...members, a1: { ...members.a1, heartbeatMs: NOW } },
      {
        zoneAwarenessEnabled: true,
      },
    ).readSet();
    expect(healthy.maxUnavailableZones).toBe(1);
    const twoZonesDown = ring(
      { ...members, b1: { ...members.b1, heartbeatMs: STALE } },
      {
        zoneAwarenessEnabled: true,
      },
    );
    expect(() => twoZonesDown.readSet()).toThrow('too many unhealthy instances in the ring');
  });
});

describe('Ring health and ownership', () => {
  it('judges heartbeats by the clock at call time', () => {
    let now = NOW;
    const r = new Ring(ringOf(five()), {
      replicationFactor: 3,
      heartbeatTimeoutMs: TIMEOUT,
      now: () => now,
    });
    expect(r.healthyCount('write')).toBe(5);
    now = NOW + TIMEOUT;
    expect(r.healthyCount('write')).toBe(5);
    now = NOW + TIMEOUT + 1;
    expect(r.healthyCount('write')).toBe(0);
    expect(r.instances().map((i) => i.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('counts only ACTIVE members healthy for writes, and PENDING/LEAVING too for reads', () => {
    const r = ring(
      five({ a: { state: 'PENDING' }, b: { state: 'JOINING' }, c: { state: 'LEAVING' } }),
    );
    expect(r.healthyInstances('write').map((i) => i.id)).toEqual(['d', 'e']);
    expect(r.healthyInstances('read').map((i) => i.id)).toEqual(['a', 'c', 'd', 'e']);
    expect(r.isHealthy(r.instance('b')!, 'read')).toBe(false);
  });

  it('gives each member the ranges ending at its tokens, summing to 1', () => {
    const r = ring({
      a: { tokens: [0, 0x8000_0000] },
      b: { tokens: [0x4000_0000] },
      c: { tokens: [] },
      d: { tokens: [0xc000_0000] },
    });
    const own = r.ownership();
    expect(Object.fromEntries(own)).toEqual({ a: 0.5, b: 0.25, c: 0, d: 0.25 });
    expect([...own.values()].reduce((x, y) => x + y)).toBe(1);
    const random = ring(
      Object.fromEntries(
        Array.from({ length: 7 }, (_, n) => [
          `i${n}`,
          { tokens: Array.from({ length: 16 }, (_, k) => ((n * 16 + k) * 2654435761) >>> 0) },
        ]),
      ),
    );
    const sum = [...random.ownership().values()].reduce((x, y) => x + y);
    expect(sum).toBeCloseTo(1, 12);
  });

  it('owns the whole ring with a single token', () => {
    expect(
      ring({ a: { tokens: [42] } })
        .ownership()
        .get('a'),
    ).toBe(1);
  });
});
