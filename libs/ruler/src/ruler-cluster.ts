// The ruler's cluster behaviour over its ring: which groups this ruler evaluates, when to
// re-shard, and the cluster-wide rules listing (Loki's GetRules).
import type { RuleGroupJson } from '@logsvc/api';
import type { InstanceDesc, Ring } from '@logsvc/ring';
import type { OwnedGroup } from './manager';
import { ownedGroups } from './sharding';

/** What the ruler reads of the ruler ring. */
export type RulerRing = Pick<Ring, 'get' | 'instances' | 'isHealthy' | 'allHealthy'>;

/** The groups of `all` that the ring gives to ruler `selfId` (one owner per group). */
export function groupsOwnedInRing(
  all: readonly OwnedGroup[],
  selfId: string,
  ring: RulerRing,
): OwnedGroup[] {
  return ownedGroups(all, selfId, (token) => {
    try {
      return ring.get(token, 'write').instances[0]?.id;
    } catch {
      return undefined;
    }
  });
}

/**
 * The ring's members with their state and health, as one comparable text: when it changes (a
 * ruler joined, left or turned unhealthy), the groups are re-sharded.
 */
export function ringMembership(ring: RulerRing): string {
  return ring
    .instances()
    .map((i) => `${i.id}:${i.state}:${ring.isHealthy(i, 'write')}`)
    .sort()
    .join(',');
}

/**
 * The groups of every ruler of the cluster: `own` (this ruler's, `selfId`) and each other
 * healthy ruler's through `peerRules`, sorted by namespace (file) and group. One ruler failing
 * to answer fails the whole listing, as in Loki. Rulers that are not healthy in the ring are
 * left out (their groups are evaluated by nobody until they are forgotten).
 */
export async function clusterRuleGroups(
  own: readonly RuleGroupJson[],
  selfId: string,
  ring: RulerRing,
  peerRules: (peer: InstanceDesc) => Promise<RuleGroupJson[]>,
): Promise<RuleGroupJson[]> {
  const others = ring.instances().length === 0 ? [] : ring.allHealthy('write');
  const parts = await Promise.all([
    own,
    ...others
      .filter((i) => i.id !== selfId)
      .map(async (i) => {
        try {
          return await peerRules(i);
        } catch (err) {
          const text = err instanceof Error ? err.message : String(err);
          throw new Error(`unable to retrieve rules from ruler ${i.addr}: ${text}`);
        }
      }),
  ]);
  return parts.flat().sort(byFileThenName);
}

function byFileThenName(a: RuleGroupJson, b: RuleGroupJson): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
