// Sorts the keys of a raw config document before the schema parses it: keys of Loki's
// reference that logsvc's schema does not have are taken out, each either accepted with a
// warning or refused (key-classes.ts); keys of neither are unknown. Every problem is kept, so
// that one run reports them all.
import { datasizeParseString } from '@logsvc/gocompat';
import { parseDuration } from './duration';
import { ruleFor } from './key-classes';
import { LOKI_KEYS, isReferenceBlock } from './loki-reference';
import { memberlistProblem } from './memberlist';
import { SCHEMA_TREE, type SchemaNode } from './schema-tree';
import { refusal } from './refusal';
import { NOT_WIRED } from './unsupported';

/** A key accepted without effect, to be logged once at start. */
export interface KeyWarning {
  /** The key as written, e.g. `schema_config.configs.0.chunks.period`. */
  readonly key: string;
  readonly reason: string;
}

/** One problem, at `path` (dotted, list indices as numbers) of the document. */
export interface KeyProblem {
  readonly path: string;
  readonly message: string;
}

export interface KeyWalkResult {
  readonly warnings: KeyWarning[];
  readonly problems: KeyProblem[];
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);

/** Whether `value` is what the reference gives as the key's default. */
export function atLokiDefault(value: unknown, written: string): boolean {
  const def = written.startsWith('"') && written.endsWith('"') ? written.slice(1, -1) : written;
  if (Array.isArray(value)) return value.length === 0 && (def === '[]' || def === '');
  if (isMap(value)) return Object.keys(value).length === 0;
  if (typeof value === 'boolean') return String(value) === def || (!value && def === '');
  if (typeof value === 'number') {
    if (def === '' || def === '0s') return value === 0;
    return Number(def) === value || datasizeParseString(def) === value;
  }
  if (typeof value === 'string') {
    if (value === def) return true;
    const [a, b] = [parseDuration(value), parseDuration(def)];
    if (a !== undefined && a === b) return true;
    const [x, y] = [datasizeParseString(value), datasizeParseString(def)];
    return x !== undefined && x === y;
  }
  return false;
}

/**
 * Removes from `doc` (in place) every key the schema does not have, and reports what became of
 * each. Schema keys that logsvc accepts without acting on them (NOT_WIRED, class warn) are kept
 * for the schema to check, and reported as warnings.
 */
export function sortKeys(doc: Record<string, unknown>): KeyWalkResult {
  const result: KeyWalkResult = { warnings: [], problems: [] };
  walkSchema(doc, SCHEMA_TREE, '', '', result);
  return result;
}

const join = (a: string, b: string) => (a === '' ? b : `${a}.${b}`);

function walkSchema(
  value: unknown,
  node: SchemaNode,
  path: string,
  ref: string,
  out: KeyWalkResult,
): void {
  if (node.kind === 'leaf') {
    const rule = NOT_WIRED.has(ref) ? ruleFor(ref) : undefined;
    if (rule?.class === 'warn') out.warnings.push({ key: path, reason: rule.reason });
    return;
  }
  if (node.kind === 'list') {
    if (!Array.isArray(value)) return; // the schema reports the type
    value.forEach((item, i) =>
      walkSchema(item, node.element, join(path, String(i)), `${ref}[]`, out),
    );
    return;
  }
  if (!isMap(value)) return;
  for (const key of Object.keys(value)) {
    const child = node.children.get(key);
    const childPath = join(path, key);
    const childRef = join(ref, key);
    if (child !== undefined) {
      walkSchema(value[key], child, childPath, childRef, out);
      continue;
    }
    walkReference(value[key], childPath, childRef, out);
    delete value[key];
  }
}

/** A key (or block) the schema does not have: Loki's, or unknown. */
function walkReference(value: unknown, path: string, ref: string, out: KeyWalkResult): void {
  const known = LOKI_KEYS.get(ref);
  if (known === undefined && isReferenceBlock(ref)) {
    if (isMap(value)) {
      for (const [key, v] of Object.entries(value))
        walkReference(v, join(path, key), join(ref, key), out);
    } else if (Array.isArray(value) && isReferenceBlock(`${ref}[]`)) {
      value.forEach((item, i) => walkReference(item, join(path, String(i)), `${ref}[]`, out));
    } else {
      out.problems.push({ path, message: 'expected a map' });
    }
    return;
  }
  if (known === undefined) {
    out.problems.push({ path, message: 'unknown key' });
    return;
  }
  const special = memberlistProblem(ref, value);
  if (special !== undefined) {
    out.problems.push({ path, message: special });
    return;
  }
  const rule = ruleFor(ref);
  if (rule?.class === 'warn') {
    out.warnings.push({ key: path, reason: rule.reason });
    return;
  }
  if (atLokiDefault(value, known.default)) return;
  out.problems.push({ path, message: refusal(rule?.reason, rule?.instead) });
}
