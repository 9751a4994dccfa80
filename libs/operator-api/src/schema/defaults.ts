import type { SchemaNode } from './nodes';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The value with every absent field that has a default filled in, recursively, as the API
 * server's structural defaulting does. The input is not changed.
 */
export function applyDefaults(node: SchemaNode, value: unknown): unknown {
  const v = value === undefined ? structuredClone(node.default) : value;
  if (v === undefined) return undefined;
  switch (node.kind) {
    case 'object': {
      if (!isObject(v)) return v;
      const out: Record<string, unknown> = { ...v };
      for (const [name, field] of Object.entries(node.fields)) {
        const filled = applyDefaults(field, v[name]);
        if (filled !== undefined) out[name] = filled;
      }
      return out;
    }
    case 'array':
      return Array.isArray(v) ? v.map((item) => applyDefaults(node.items, item)) : v;
    case 'map': {
      if (!isObject(v)) return v;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) out[key] = applyDefaults(node.values, item);
      return out;
    }
    default:
      return v;
  }
}
