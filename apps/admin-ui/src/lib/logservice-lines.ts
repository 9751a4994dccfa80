// How the LogService view relates its two files: the rendered config's lines that differ from
// logsvc's defaults (what the spec changed), and the spec lines each of them comes from.
import { parse } from 'yaml';
import { type YamlLeaf, valueAt, yamlLeaves } from './yaml-leaves';

/** A setting of the rendered config that differs from logsvc's default. */
export interface ChangedSetting {
  /** Dotted path (`limits_config.max_line_size`). */
  path: string;
  /** logsvc's default, as text; undefined when logsvc has no default there. */
  defaultText?: string;
  /** Lines of the spec with the same setting and value. */
  specLines: number[];
}

export interface RelatedLines {
  /** Each line of the rendered config that differs from the defaults → its setting. */
  config: Map<number, ChangedSetting>;
  /** Each spec line that one of those settings comes from → their first lines in the config. */
  spec: Map<number, number[]>;
  /** How many settings differ (a list over several lines is one). */
  changedSettings: number;
}

function parseOrEmpty(text: string): unknown {
  try {
    return parse(text) ?? {};
  } catch {
    return {};
  }
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `maxLineSize`, `max_line_size` and `max-line-size` name the same setting. */
const normalized = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The names a spec setting may have in the config: its key, or its key after its parent's
 * (`retention.deleteDelay` → `retention_delete_delay`, `s3.forcePathStyle` → `s3forcepathstyle`).
 */
function specNames(leaf: YamlLeaf): string[] {
  const key = leaf.path[leaf.path.length - 1];
  const parent = leaf.path[leaf.path.length - 2];
  return parent === undefined ? [normalized(key)] : [normalized(key), normalized(parent + key)];
}

const sameValue = (a: unknown, b: unknown) =>
  typeof a !== 'object' && typeof b !== 'object' && a !== null && String(a) === String(b);

/**
 * Relates the spec and the rendered config. `diffYaml` is `/config?mode=diff` of the process
 * (its running config's differences from the defaults), `defaultsYaml` `/config?mode=defaults`.
 * A config setting differs when the running config has it in its diff. A spec line is related
 * to a differing config setting of the same name (camelCase or snake_case, possibly prefixed
 * by the spec's parent key) and the same scalar value.
 */
export function relateLines(
  specYaml: string,
  renderedYaml: string,
  diffYaml: string,
  defaultsYaml: string,
): RelatedLines {
  const diff = parseOrEmpty(diffYaml);
  const defaults = parseOrEmpty(defaultsYaml);
  const specLeaves = yamlLeaves(specYaml);
  const config = new Map<number, ChangedSetting>();
  const spec = new Map<number, number[]>();
  let changedSettings = 0;
  for (const leaf of yamlLeaves(renderedYaml)) {
    if (!valueAt(diff, leaf.path).found) continue;
    changedSettings++;
    const byDefault = valueAt(defaults, leaf.path);
    const name = normalized(leaf.path[leaf.path.length - 1]);
    const specLines = specLeaves
      .filter((s) => specNames(s).includes(name) && sameValue(s.value, leaf.value))
      .map((s) => s.firstLine);
    const setting: ChangedSetting = {
      path: leaf.path.join('.'),
      ...(byDefault.found ? { defaultText: asText(byDefault.value) } : {}),
      specLines,
    };
    for (let line = leaf.firstLine; line <= leaf.lastLine; line++) config.set(line, setting);
    for (const line of specLines) spec.set(line, [...(spec.get(line) ?? []), leaf.firstLine]);
  }
  return { config, spec, changedSettings };
}
