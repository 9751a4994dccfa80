// Every key of Loki's configuration reference (libs/config/src/loki-reference.json, extracted
// by tools/scripts/loki-config-keys.mjs). List elements are written `[]`: `schema_config.configs[].from`.
import reference from './loki-reference.json';

export interface ReferenceKey {
  readonly path: string;
  /** The type as the reference writes it: `string`, `duration`, `list of strings`, ... */
  readonly type: string;
  /** The default as the reference writes it (strings quoted); empty when none is given. */
  readonly default: string;
  readonly flag: string;
}

export const LOKI_REFERENCE_VERSION: string = reference.version;

export const LOKI_KEYS: ReadonlyMap<string, ReferenceKey> = new Map(
  (reference.keys as ReferenceKey[]).map((key) => [key.path, key]),
);

/** Paths of the reference's maps (`server`, `common.storage`, ...): prefixes of its keys. */
const BLOCKS: ReadonlySet<string> = (() => {
  const blocks = new Set<string>();
  for (const path of LOKI_KEYS.keys()) {
    const parts = path.split('.');
    for (let i = 1; i < parts.length; i++) blocks.add(parts.slice(0, i).join('.'));
  }
  return blocks;
})();

export function isReferenceBlock(path: string): boolean {
  return BLOCKS.has(path);
}
