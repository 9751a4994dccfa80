/** Go literal syntax: strconv.Unquote / UnquoteChar and strconv.ParseInt/ParseUint/ParseFloat. */

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

function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && /[bBoOxX]/.test(s[1])) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i];
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** strconv.ParseInt(s, 0, 64) (signed) or ParseUint(s, 0, 64) (unsigned). */
export function parseGoInt(s: string, unsigned: boolean): bigint | undefined {
  let neg = false;
  let body = s;
  if (body[0] === '+' || body[0] === '-') {
    if (unsigned) return undefined;
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let base = 10;
  let digits = body;
  if (/^0[xX]/.test(body)) [base, digits] = [16, body.slice(2)];
  else if (/^0[oO]/.test(body)) [base, digits] = [8, body.slice(2)];
  else if (/^0[bB]/.test(body)) [base, digits] = [2, body.slice(2)];
  else if (/^0./.test(body)) [base, digits] = [8, body.slice(1)];
  if (digits.includes('_') && !underscoreOK(body)) return undefined;
  digits = digits.replace(/_/g, '');
  const valid = { 16: /^[0-9a-fA-F]+$/, 10: /^[0-9]+$/, 8: /^[0-7]+$/, 2: /^[01]+$/ }[base]!;
  if (!valid.test(digits)) return undefined;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  let v = BigInt(prefix + digits);
  if (neg) v = -v;
  if (unsigned ? v >= 1n << 64n : v < -(1n << 63n) || v >= 1n << 63n) return undefined;
  return v;
}

/** strconv.ParseFloat(s, 64) for decimal and hex-float syntax; undefined on invalid syntax. */
export function parseGoFloat(s: string): number | undefined {
  if (s.includes('_') && !underscoreOK(s)) return undefined;
  const t = s.replace(/_/g, '');
  const hexm = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(t);
  if (hexm) {
    const [, sign, int, frac = '', exp] = hexm;
    if (int === '' && frac === '') return undefined;
    const mant = parseInt((int || '0') + frac, 16);
    const v = mant * Math.pow(2, Number(exp) - 4 * frac.length);
    return sign === '-' ? -v : v;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}
