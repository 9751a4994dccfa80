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
