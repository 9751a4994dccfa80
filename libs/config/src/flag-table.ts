// Loki's command-line flag names and the YAML key each one sets, collected from the `flag()`
// declarations beside the fields in the schema. Flags not declared there are rejected: there
// is deliberately no generic `-<yaml.path>=` form, because Loki has none.
import type { z } from 'zod';
import { type FlagKind, fieldFlags, flagKindOf } from './fields';
import { configSchema } from './schema';

export type { FlagKind } from './fields';

export interface FlagSpec {
  /** Dotted YAML path the flag sets, e.g. `server.http_listen_port`. */
  readonly path: string;
  readonly kind: FlagKind;
}

type Def = { type: string; [key: string]: unknown };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Adds the flags of `schema` (a field, or a section and everything in it) to `table`. */
function collect(schema: z.ZodType, path: string, table: Record<string, FlagSpec>): void {
  const names = fieldFlags.get(schema);
  if (names !== undefined) {
    const kind = flagKindOf(schema)!;
    for (const name of names) {
      if (table[name] !== undefined) throw new Error(`flag -${name} is declared twice`);
      table[name] = { path, kind };
    }
    return;
  }
  const def = defOf(schema);
  if (def.type === 'default' || def.type === 'prefault' || def.type === 'optional') {
    collect(def.innerType as z.ZodType, path, table);
  } else if (def.type === 'object') {
    for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
      collect(field, path === '' ? key : `${path}.${key}`, table);
    }
  }
}

function buildFlagTable(): Readonly<Record<string, FlagSpec>> {
  const table: Record<string, FlagSpec> = {};
  collect(configSchema, '', table);
  return table;
}

export const FLAG_TABLE: Readonly<Record<string, FlagSpec>> = buildFlagTable();
