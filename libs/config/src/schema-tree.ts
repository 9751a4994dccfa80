// The shape of logsvc's config schema as a tree of YAML keys, for walking a raw document
// beside it (key-walk.ts) and for the key table (key-table.ts).
import type { z } from 'zod';
import { configSchema } from './schema';

export type SchemaNode =
  | { readonly kind: 'map'; readonly children: ReadonlyMap<string, SchemaNode> }
  | { readonly kind: 'list'; readonly element: SchemaNode }
  | { readonly kind: 'leaf' };

type Def = { type: string; [key: string]: unknown };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function build(schema: z.ZodType): SchemaNode {
  const def = defOf(schema);
  if (def.type === 'default' || def.type === 'prefault' || def.type === 'optional') {
    return build(def.innerType as z.ZodType);
  }
  if (def.type === 'object') {
    const children = new Map<string, SchemaNode>();
    for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
      children.set(key, build(field));
    }
    return { kind: 'map', children };
  }
  if (def.type === 'array') {
    const element = build(def.element as z.ZodType);
    if (element.kind === 'map') return { kind: 'list', element };
  }
  return { kind: 'leaf' };
}

export const SCHEMA_TREE: SchemaNode = build(configSchema);

/** Every leaf of the schema as a dotted path, list elements written `name[]`. */
export function schemaLeafPaths(node: SchemaNode = SCHEMA_TREE, prefix = ''): string[] {
  if (node.kind === 'leaf') return [prefix];
  if (node.kind === 'list') return schemaLeafPaths(node.element, `${prefix}[]`);
  const out: string[] = [];
  for (const [key, child] of node.children) {
    out.push(...schemaLeafPaths(child, prefix === '' ? key : `${prefix}.${key}`));
  }
  return out;
}
