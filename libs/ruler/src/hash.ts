/** FNV-1a, 32 bit, over UTF-8 bytes (Go's hash/fnv New32a). */
export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Loki's tokenForGroup: the ring token of a rule group, FNV-1a of `tenant/namespace/group`. */
export function tokenForGroup(tenant: string, namespace: string, group: string): number {
  return fnv32a(`${tenant}/${namespace}/${group}`);
}
