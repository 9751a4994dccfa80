/** Go literal syntax: strconv.Unquote / UnquoteChar. */

const SIMPLE: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };

/** Decodes one (possibly escaped) char at s[i]; returns [bytes or code point, next index]. */
function unquoteChar(s: string, i: number, quote: string): [number[] | number, number] | undefined {
  const c = s[i];
  if (c !== '\\') {
    if (c === quote) return undefined;
    const cp = s.codePointAt(i)!;
    return [cp, i + (cp > 0xffff ? 2 : 1)];
  }
  const e = s[i + 1];
  if (e === undefined) return undefined;
  if (e in SIMPLE) return [SIMPLE[e], i + 2];
  if (e === quote) return [quote.charCodeAt(0), i + 2];
  const hex = (n: number): [number, number] | undefined => {
    const h = s.slice(i + 2, i + 2 + n);
    if (h.length !== n || !/^[0-9a-fA-F]+$/.test(h)) return undefined;
    return [parseInt(h, 16), i + 2 + n];
  };
  if (e === 'x') {
    const r = hex(2);
    return r ? [[r[0]], r[1]] : undefined;
  }
  if (e === 'u' || e === 'U') {
    const r = hex(e === 'u' ? 4 : 8);
    if (!r || r[0] > 0x10ffff || (r[0] >= 0xd800 && r[0] < 0xe000)) return undefined;
    return r;
  }
  if (e >= '0' && e <= '7') {
    const o = s.slice(i + 1, i + 4);
    if (!/^[0-7]{3}$/.test(o)) return undefined;
    const v = parseInt(o, 8);
    return v > 255 ? undefined : [[v], i + 4];
  }
  return undefined;
}

/** strconv.Unquote for "..." and `...` literals; undefined on invalid syntax. */
export function unquote(lit: string): string | undefined {
  const q = lit[0];
  if (q === '`') return lit.slice(1, -1).replace(/\r/g, '');
  if (q !== '"' || lit.length < 2 || lit[lit.length - 1] !== '"') return undefined;
  const body = lit.slice(1, -1);
  if (!body.includes('\\')) return body.includes('"') || body.includes('\n') ? undefined : body;
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const r = unquoteChar(body, i, '"');
    if (!r) return undefined;
    const [v, next] = r;
    if (Array.isArray(v)) bytes.push(...v);
    else bytes.push(...Buffer.from(String.fromCodePoint(v), 'utf8'));
    i = next;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The rune value of a character constant like 'a' or '\n'; undefined if malformed. */
export function unquoteRune(lit: string): number | undefined {
  if (lit.length < 3 || lit[0] !== "'" || lit[lit.length - 1] !== "'") return undefined;
  const r = unquoteChar(lit, 1, "'");
  if (!r || r[1] !== lit.length - 1) return undefined;
  return Array.isArray(r[0]) ? r[0][0] : r[0];
}
