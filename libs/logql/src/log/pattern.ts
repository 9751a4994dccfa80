/**
 * Loki's pattern language (`pkg/logql/log/pattern`): `<name>` captures, `<_>` unnamed
 * captures, everything else literal. Used by the `|>` / `!>` line filters and `| pattern`.
 */
import { StageBuildError } from './errors';

export type PatternNode =
  | { readonly kind: 'literal'; readonly bytes: Buffer }
  | { readonly kind: 'capture'; readonly name: string };

const CAPTURE = /<([A-Za-z_][A-Za-z0-9_]*)>/g;

/** Splits a pattern into literal and capture nodes, merging adjacent literal text. */
export function parsePattern(text: string): PatternNode[] {
  const nodes: PatternNode[] = [];
  let last = 0;
  for (const m of text.matchAll(CAPTURE)) {
    if (m.index > last)
      nodes.push({ kind: 'literal', bytes: Buffer.from(text.slice(last, m.index)) });
    nodes.push({ kind: 'capture', name: m[1] });
    last = m.index + m[0].length;
  }
  if (last < text.length) nodes.push({ kind: 'literal', bytes: Buffer.from(text.slice(last)) });
  return nodes;
}

function show(node: PatternNode): string {
  return node.kind === 'capture' ? `<${node.name}>` : node.bytes.toString();
}

function checkNoConsecutiveCaptures(nodes: PatternNode[]): void {
  for (let i = 0; i + 1 < nodes.length; i++) {
    if (nodes[i].kind === 'capture' && nodes[i + 1].kind === 'capture') {
      throw new StageBuildError(
        `found consecutive capture '${show(nodes[i])}${show(nodes[i + 1])}': invalid expression`,
      );
    }
  }
}

/** A pattern used as a line filter: only unnamed captures are allowed. */
export class PatternLineMatcher {
  private readonly nodes: PatternNode[];

  constructor(readonly pattern: string) {
    this.nodes = parsePattern(pattern);
    checkNoConsecutiveCaptures(this.nodes);
    for (const n of this.nodes) {
      if (n.kind === 'capture' && n.name !== '_') {
        throw new StageBuildError(`named captures are not allowed: found '${show(n)}'`);
      }
    }
  }

  /**
   * Loki's `Matcher.Test`: literals appear in order, a leading literal starts the line,
   * captures are never empty, and a trailing literal ends the line.
   */
  test(line: Buffer): boolean {
    const nodes = this.nodes;
    if (line.length === 0 || nodes.length === 0) return line.length === 0 && nodes.length === 0;
    let off = 0;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n.kind !== 'literal') continue;
      if (i === 0) {
        if (!startsWith(line, n.bytes)) return false;
        off = n.bytes.length;
        continue;
      }
      const j = line.indexOf(n.bytes, off);
      if (j < 0) return false;
      if (j === off) return false;
      off = j + n.bytes.length;
    }
    const endsOnLiteral = nodes[nodes.length - 1].kind === 'literal';
    return endsOnLiteral === (off === line.length);
  }
}

/** A pattern used as a parser: at least one named capture, unique names. */
export class PatternExtractor {
  private readonly nodes: PatternNode[];
  readonly names: readonly string[];

  constructor(readonly pattern: string) {
    this.nodes = parsePattern(pattern);
    const names = this.nodes.flatMap((n) =>
      n.kind === 'capture' && n.name !== '_' ? [n.name] : [],
    );
    if (names.length === 0) throw new StageBuildError('at least one capture is required');
    checkNoConsecutiveCaptures(this.nodes);
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) {
        throw new StageBuildError(`duplicate capture name (${name}): invalid expression`);
      }
      seen.add(name);
    }
    this.names = names;
  }

  /**
   * Loki's `Matcher.Matches`: calls `onCapture(nameIndex, start, end)` for the named captures
   * matched, in order. A capture whose following literal is missing takes the rest of the line.
   */
  match(line: Buffer, onCapture: (nameIndex: number, start: number, end: number) => void): void {
    const nodes = this.nodes;
    if (line.length === 0) return;
    let pos = 0;
    let i = 0;
    let named = 0;
    const first = nodes[0];
    if (first.kind === 'literal') {
      if (!startsWith(line, first.bytes)) return;
      pos = first.bytes.length;
      i = 1;
    }
    while (i < nodes.length) {
      const cap = nodes[i] as { kind: 'capture'; name: string };
      const isNamed = cap.name !== '_';
      if (i + 1 >= nodes.length) {
        if (isNamed) onCapture(named, pos, line.length);
        return;
      }
      const lit = (nodes[i + 1] as { kind: 'literal'; bytes: Buffer }).bytes;
      i += 2;
      const j = line.indexOf(lit, pos);
      if (j < 0) {
        if (isNamed) onCapture(named, pos, line.length);
        return;
      }
      if (isNamed) onCapture(named++, pos, j);
      pos = j + lit.length;
    }
  }
}

function startsWith(line: Buffer, prefix: Buffer): boolean {
  return (
    line.length >= prefix.length && line.compare(prefix, 0, prefix.length, 0, prefix.length) === 0
  );
}
