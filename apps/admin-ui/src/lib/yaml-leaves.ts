// The settings of a YAML file with the lines they are on, for the LogService view: which lines
// of the rendered config differ from the defaults, and which spec lines they come from.
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';

/** One setting: a key whose value is a scalar or a list (lists count as one value, as in /config). */
export interface YamlLeaf {
  /** Keys from the top (`['limits_config', 'max_line_size']`). */
  path: string[];
  /** 1-based lines of the key and its value. */
  firstLine: number;
  lastLine: number;
  /** The value as JavaScript (a list stays a list). */
  value: unknown;
}

/** Every setting of `text`; none when it is not YAML or not a map. */
export function yamlLeaves(text: string): YamlLeaf[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return [];
  const lineOf = (offset: number) => counter.linePos(offset).line;
  const out: YamlLeaf[] = [];
  const walk = (node: Node, path: string[]) => {
    if (!isMap(node)) return;
    for (const pair of node.items) {
      if (!isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      const value = pair.value as Node | null;
      if (isMap(value)) {
        walk(value, [...path, key]);
        continue;
      }
      const start = pair.key.range?.[0] ?? 0;
      // A value's range ends after its trailing newline: the line before holds its last char.
      const end = value?.range?.[1] ?? pair.key.range?.[1] ?? start;
      out.push({
        path: [...path, key],
        firstLine: lineOf(start),
        lastLine: Math.max(lineOf(start), lineOf(Math.max(start, end - 1))),
        value: isSeq(value) || isScalar(value) ? value.toJSON() : null,
      });
    }
  };
  walk(doc.contents, []);
  return out;
}

/** The value at `path` of parsed YAML, and whether it is there at all. */
export function valueAt(
  doc: unknown,
  path: readonly string[],
): { found: boolean; value?: unknown } {
  let node = doc;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !(key in node))
      return { found: false };
    node = (node as Record<string, unknown>)[key];
  }
  return { found: true, value: node };
}
