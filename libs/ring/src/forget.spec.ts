import { describe, expect, it } from 'vitest';
import { forgetUnhealthy } from './forget';
import { InMemoryKv } from './memory-kv';
import { decodeRing, encodeRing, type InstanceDesc, type RingDesc } from './types';

const KEY = 'rulers/ring';
const NOW = Date.UTC(2025, 0, 1);

function member(id: string, heartbeatMs: number): InstanceDesc {
  return {
    id,
    addr: `${id}:9095`,
    zone: '',
    state: 'ACTIVE',
    tokens: [1],
    heartbeatMs,
    registeredMs: NOW - 600_000,
  } as InstanceDesc;
}

async function ringWith(...members: InstanceDesc[]): Promise<InMemoryKv> {
  const kv = new InMemoryKv();
  const desc: RingDesc = { instances: Object.fromEntries(members.map((m) => [m.id, m])) };
  await kv.cas(KEY, () => encodeRing(desc));
  return kv;
}

describe('forgetUnhealthy (dskit AutoForgetDelegate)', () => {
  it('removes members silent for longer than the period, never itself', async () => {
    const kv = await ringWith(
      member('a', NOW - 1_000),
      member('b', NOW - 6_001),
      member('c', NOW - 6_000),
      member('self', NOW - 60_000),
    );
    expect(await forgetUnhealthy(kv, KEY, 'self', 6_000, NOW)).toEqual(['b']);
    expect(Object.keys(decodeRing(await kv.get(KEY)).instances).sort()).toEqual(['a', 'c', 'self']);
  });

  it('forgets nothing with a period of 0 (heartbeat timeout disabled)', async () => {
    const kv = await ringWith(member('a', 0));
    expect(await forgetUnhealthy(kv, KEY, 'self', 0, NOW)).toEqual([]);
    expect(Object.keys(decodeRing(await kv.get(KEY)).instances)).toEqual(['a']);
  });
});
