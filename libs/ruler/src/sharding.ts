// Loki's sharding by group: each rule group belongs to the ruler that owns its token
// (tokenForGroup) in the ruler ring, so exactly one healthy ruler evaluates it.
import { tokenForGroup } from './hash';
import type { OwnedGroup } from './manager';

/** `owner(token)`: the ID of the instance the ring gives the token to, or undefined. */
export function ownedGroups(
  groups: readonly OwnedGroup[],
  selfId: string,
  owner: (token: number) => string | undefined,
): OwnedGroup[] {
  return groups.filter((g) => owner(tokenForGroup(g.tenant, g.namespace, g.group.name)) === selfId);
}
