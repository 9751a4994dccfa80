import { beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from './errors';
import { parseExpr } from './parser';
import { prettyExpr } from './pretty';
import { printExpr } from './printer';
import { stripPositions } from './strip-pos';
import { CORPUS } from './testdata/corpus';
import { LEZER_DISAGREEMENTS } from './testdata/lezer-disagreements';

function tryParse(q: string): ParseError | undefined {
  try {
    parseExpr(q);
    return undefined;
  } catch (err) {
    if (err instanceof ParseError) return err;
    throw err;
  }
}

/** The part of lezer's LRParser this test uses. */
interface LezerParser {
  parse(input: string): {
    iterate(spec: { enter(node: { type: { isError: boolean } }): void }): void;
  };
}
let lezer: LezerParser;

beforeAll(async () => {
  // ESM-only package: loaded with a dynamic import from this CommonJS-typed file.
  const mod = (await import('@grafana/lezer-logql')) as unknown as { parser: LezerParser };
  lezer = mod.parser;
});

function lezerAccepts(q: string): boolean {
  let ok = true;
  lezer.parse(q).iterate({
    enter: (node) => {
      if (node.type.isError) ok = false;
    },
  });
  return ok;
}

describe('corpus', () => {
  it('has at least 300 queries, valid and invalid', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(300);
    expect(CORPUS.filter((c) => c.error === undefined).length).toBeGreaterThan(150);
    expect(CORPUS.filter((c) => c.error !== undefined).length).toBeGreaterThan(100);
  });

  it('accepts the valid queries and rejects the invalid ones with the expected messages', () => {
    const wrong: string[] = [];
    for (const entry of CORPUS) {
      const err = tryParse(entry.q);
      if (entry.error === undefined && err !== undefined)
        wrong.push(`${entry.q} -> ${err.message}`);
      if (entry.error !== undefined && err === undefined) wrong.push(`${entry.q} -> accepted`);
      if (typeof entry.error === 'string' && err !== undefined && err.message !== entry.error) {
        wrong.push(`${entry.q} -> ${err.message} (want ${entry.error})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reports every error at a position inside the input', () => {
    for (const entry of CORPUS) {
      const err = tryParse(entry.q);
      if (err === undefined || err.offset === undefined) continue;
      expect(err.offset).toBeGreaterThanOrEqual(0);
      expect(err.offset).toBeLessThanOrEqual(entry.q.length);
      // Line 0: Loki's lexer finished the token character by character (a range, a duration).
      expect(err.line).toBeGreaterThanOrEqual(0);
      expect(err.line).toBeLessThanOrEqual(entry.q.split('\n').length);
    }
  });

  it('prints every valid query so that it parses back to the same tree', () => {
    for (const entry of CORPUS) {
      if (entry.error !== undefined) continue;
      const ast = parseExpr(entry.q);
      for (const printed of [printExpr(ast), prettyExpr(ast)]) {
        expect(stripPositions(parseExpr(printed)), `${entry.q} => ${printed}`).toEqual(
          stripPositions(ast),
        );
      }
    }
  });
});

describe('cross-check with @grafana/lezer-logql', () => {
  const listed = new Map(LEZER_DISAGREEMENTS.map((d) => [d.q, d.reason]));

  it('parses every corpus query that lezer accepts, except the listed disagreements', () => {
    const unexpected: string[] = [];
    for (const entry of CORPUS) {
      if (!lezerAccepts(entry.q)) continue;
      const err = tryParse(entry.q);
      if (err === undefined) continue;
      // Loki's semantic checks come after the grammar; lezer has no equivalent.
      const semanticCheck = err.line === 0 && err.col === 0;
      if (!semanticCheck && !listed.has(entry.q)) unexpected.push(`${entry.q} -> ${err.message}`);
    }
    expect(unexpected).toEqual([]);
  });

  it('lists only real disagreements', () => {
    for (const { q } of LEZER_DISAGREEMENTS) {
      expect(lezerAccepts(q), q).toBe(true);
      expect(tryParse(q), q).toBeInstanceOf(ParseError);
    }
  });
});
