// Turns config objects back into YAML text: durations as `5m`, sizes as `256KB`.
import { datasizeString, goDurationString, modelDurationString } from '@logsvc/gocompat';
import { stringify } from 'yaml';
import type { z } from 'zod';
import { type FieldKind, fieldKinds } from './fields';
import { configSchema } from './schema';

type Def = { type: string; [key: string]: unknown };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips default/prefault/optional wrappers down to the schema that describes the field. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (fieldKinds.has(current)) return current;
    const def = defOf(current);
    if (def.type === 'default' || def.type === 'prefault' || def.type === 'optional') {
      current = def.innerType as z.ZodType;
    } else {
      return current;
    }
  }
}

function formatLeaf(kind: FieldKind | undefined, value: unknown): unknown {
  if (typeof value !== 'number') return value;
  if (kind === 'duration') {
    // Sub-millisecond values only come from Go syntax (`250us`); print them that way.
    if (Number.isInteger(value)) return modelDurationString(value);
    return goDurationString(BigInt(Math.round(value * 1e6)));
  }
  if (kind === 'size') return datasizeString(value);
  if (kind === 'timestamp') return value === 0 ? '' : new Date(value).toISOString();
  return value;
}

/** Converts a (partial) config-shaped value of `schema` to its YAML form. */
export function toYamlValue(schema: z.ZodType, value: unknown): unknown {
  const inner = unwrap(schema);
  const kind = fieldKinds.get(inner);
  if (kind) return formatLeaf(kind, value);
  const def = defOf(inner);
  if (def.type === 'object' && value !== null && typeof value === 'object') {
    const shape = def.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = shape[key] ? toYamlValue(shape[key], v) : v;
    }
    return out;
  }
  if (def.type === 'array' && Array.isArray(value)) {
    return value.map((v) => toYamlValue(def.element as z.ZodType, v));
  }
  return value;
}

/** YAML text of a whole (or partial) configuration, as `/config` serves it. */
export function renderConfigYaml(config: unknown): string {
  return stringify(toYamlValue(configSchema, config), { lineWidth: 0 });
}
