import type { Kv } from './kv';
import { withoutInstance } from './ring-edit';
import { decodeRing, encodeRing } from './types';

/**
 * Removes member `id` from the ring under `key` (the ring page's Forget button, for a member
 * that died without leaving). Resolves whether it was there.
 */
export async function forgetInstance(kv: Kv, key: string, id: string): Promise<boolean> {
  let found = false;
  await kv.cas(key, (current) => {
    const desc = decodeRing(current);
    found = Object.hasOwn(desc.instances, id);
    return found ? encodeRing(withoutInstance(desc, id)) : null;
  });
  return found;
}

/**
 * dskit's AutoForgetDelegate: removes every member but `selfId` whose last heartbeat is older
 * than `forgetPeriodMs` (Loki's ruler: twice the heartbeat timeout), so that what it owned in
 * the ring goes to the next members. Resolves the IDs it removed. A period of 0 forgets none.
 */
export async function forgetUnhealthy(
  kv: Kv,
  key: string,
  selfId: string,
  forgetPeriodMs: number,
  nowMs: number,
): Promise<string[]> {
  if (forgetPeriodMs <= 0) return [];
  let removed: string[] = [];
  await kv.cas(key, (current) => {
    let desc = decodeRing(current);
    removed = Object.values(desc.instances)
      .filter((i) => i.id !== selfId && nowMs - i.heartbeatMs > forgetPeriodMs)
      .map((i) => i.id);
    for (const id of removed) desc = withoutInstance(desc, id);
    return removed.length > 0 ? encodeRing(desc) : null;
  });
  return removed;
}
