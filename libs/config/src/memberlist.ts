// Loki's top-level `memberlist:` block configures gossip for rings. logsvc keeps rings in etcd
// only, so a config that sets up memberlist is refused instead of silently not gossiping.

export const MEMBERLIST_REFUSED =
  'config error: memberlist is not supported by logsvc, use etcd: set common.ring.kvstore.store: ' +
  'etcd and common.ring.kvstore.etcd.endpoints';

/**
 * Removes an empty `memberlist` block from the raw document (YAML nulls already dropped) and
 * returns the refusal message when the block sets anything.
 */
export function takeMemberlist(doc: Record<string, unknown>): string | undefined {
  if (!Object.hasOwn(doc, 'memberlist')) return undefined;
  const block = doc.memberlist;
  delete doc.memberlist;
  const empty =
    block === undefined ||
    (typeof block === 'object' && block !== null && Object.keys(block).length === 0);
  return empty ? undefined : MEMBERLIST_REFUSED;
}
