/** A deep copy of an AST without `pos` fields, for comparing trees by content. */
export function stripPositions<T>(node: T): T {
  if (Array.isArray(node)) return node.map((n) => stripPositions(n)) as T;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k !== 'pos') out[k] = stripPositions(v);
  }
  return out as T;
}
