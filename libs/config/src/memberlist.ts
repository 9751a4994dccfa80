// Loki's `memberlist:` block configures gossip for rings. logsvc has no gossip: rings live in
// etcd, or in memory in a single process. A Loki config for one process (memberlist as the
// ring store, nobody to join) therefore runs on the in-memory ring; one with members to join
// is a cluster, and stops with one message that names etcd.

export const MEMBERLIST_REFUSED =
  'logsvc has no gossip ring store: use etcd (set common.ring.kvstore.store: etcd and ' +
  'common.ring.kvstore.etcd.endpoints; see docs/migrating-from-loki.md, "Rings")';

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function hasMembersToJoin(doc: Record<string, unknown>): boolean {
  const block = doc.memberlist;
  if (!isMap(block)) return false;
  const members = block.join_members;
  return Array.isArray(members)
    ? members.length > 0
    : typeof members === 'string' && members !== '';
}

/** The refusal for `memberlist.join_members` with members in it. */
export function memberlistProblem(ref: string, value: unknown): string | undefined {
  if (ref !== 'memberlist.join_members') return undefined;
  const some = Array.isArray(value) ? value.length > 0 : typeof value === 'string' && value !== '';
  return some ? MEMBERLIST_REFUSED : undefined;
}

/**
 * Turns every `kvstore.store: memberlist` of `doc` (in place) into `inmemory` and returns the
 * keys it changed. With members to join it returns none: the join_members refusal is then the
 * one message about memberlist.
 */
export function memberlistToInmemory(doc: Record<string, unknown>): string[] {
  const cluster = hasMembersToJoin(doc);
  const changed: string[] = [];
  const visit = (node: unknown, path: string) => {
    if (!isMap(node)) return;
    for (const [key, child] of Object.entries(node)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (key === 'kvstore' && isMap(child) && child.store === 'memberlist') {
        child.store = 'inmemory';
        changed.push(`${at}.store`);
      } else {
        visit(child, at);
      }
    }
  };
  visit(doc, '');
  return cluster ? [] : changed;
}
