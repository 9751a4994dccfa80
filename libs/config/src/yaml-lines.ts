// Parses YAML text keeping the line of every key, so that problems can name it.
import { LineCounter, type Node, isMap, isScalar, isSeq, parseDocument } from 'yaml';

export interface YamlWithLines {
  readonly value: unknown;
  /** Line (1-based) of each key and list item, by dotted path (list indices as numbers). */
  readonly lines: Map<string, number>;
  /** The first syntax error, if any. */
  readonly error?: string;
}

export function parseYamlWithLines(text: string): YamlWithLines {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const lines = new Map<string, number>();
  if (doc.errors.length > 0) {
    return { value: undefined, lines, error: doc.errors[0].message.split('\n')[0] };
  }
  const lineOf = (node: unknown) => {
    const range = (node as Node | null)?.range;
    return range ? lineCounter.linePos(range[0]).line : undefined;
  };
  const visit = (node: unknown, path: string) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined) continue;
        const at = path === '' ? key : `${path}.${key}`;
        const line = lineOf(pair.key);
        if (line !== undefined) lines.set(at, line);
        visit(pair.value, at);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const at = `${path}.${i}`;
        const line = lineOf(item);
        if (line !== undefined) lines.set(at, line);
        visit(item, at);
      });
    }
  };
  visit(doc.contents, '');
  return { value: doc.toJS(), lines };
}
