/**
 * Go's rune-by-rune case mapping (unicode.ToUpper / ToLower / ToTitle, as strings.ToUpper,
 * strings.ToLower and strings.Title use them). Go applies the simple one-to-one mappings of
 * UnicodeData.txt: no SpecialCasing (`ß` stays `ß`, `ﬁ` stays `ﬁ`, `İ` lowers to plain `i`),
 * no context (a final `Σ` lowers to `σ`). JavaScript applies the full mappings, so each code
 * point is mapped on its own and the few full mappings that expand are replaced by the simple
 * one. Go's tables are Unicode 15.0; the case pairs Node knows from later versions are left
 * unmapped, as in Go.
 */

type Mode = 'upper' | 'lower' | 'title';

/** Simple mappings of the code points whose full mapping expands to several code points. */
const SIMPLE_UPPER = new Map<number, number>([
  [0x1fb3, 0x1fbc],
  [0x1fc3, 0x1fcc],
  [0x1ff3, 0x1ffc],
]);
// ᾀ..ᾇ, ᾐ..ᾗ, ᾠ..ᾧ upper-case to the title-case letters eight code points on.
for (const base of [0x1f80, 0x1f90, 0x1fa0]) {
  for (let c = base; c < base + 8; c++) SIMPLE_UPPER.set(c, c + 8);
}
const SIMPLE_LOWER = new Map<number, number>([[0x0130, 0x0069]]);

/** Title case differs from upper case only for the Latin digraphs and Georgian letters. */
const TITLE_DIGRAPHS = new Map<number, number>([
  [0x01c4, 0x01c5],
  [0x01c5, 0x01c5],
  [0x01c6, 0x01c5],
  [0x01c7, 0x01c8],
  [0x01c8, 0x01c8],
  [0x01c9, 0x01c8],
  [0x01ca, 0x01cb],
  [0x01cb, 0x01cb],
  [0x01cc, 0x01cb],
  [0x01f1, 0x01f2],
  [0x01f2, 0x01f2],
  [0x01f3, 0x01f2],
]);

function isGeorgianMkhedruli(c: number): boolean {
  return (c >= 0x10d0 && c <= 0x10fa) || (c >= 0x10fd && c <= 0x10ff);
}

/** Case pairs added after Unicode 15.0 (Go's tables): no mapping in Go. */
function newerThanGo(c: number): boolean {
  return (
    c === 0x0264 ||
    c === 0x019b ||
    (c >= 0xa7cb && c <= 0xa7cf) ||
    (c >= 0xa7d2 && c <= 0xa7d5) ||
    (c >= 0xa7da && c <= 0xa7dc) ||
    c === 0x1c89 ||
    c === 0x1c8a ||
    (c >= 0x10d50 && c <= 0x10d65) ||
    (c >= 0x10d70 && c <= 0x10d85) ||
    (c >= 0x16ea0 && c <= 0x16ed3)
  );
}

function mapRune(c: number, mode: Mode): number {
  if (newerThanGo(c)) return c;
  if (mode === 'title') {
    const t = TITLE_DIGRAPHS.get(c);
    if (t !== undefined) return t;
    if (isGeorgianMkhedruli(c)) return c;
  }
  const ch = String.fromCodePoint(c);
  const full = mode === 'lower' ? ch.toLowerCase() : ch.toUpperCase();
  const first = full.codePointAt(0)!;
  if (full.length === (first > 0xffff ? 2 : 1)) return first;
  return (mode === 'lower' ? SIMPLE_LOWER : SIMPLE_UPPER).get(c) ?? c;
}

const caches: Record<Mode, Map<number, string>> = {
  upper: new Map(),
  lower: new Map(),
  title: new Map(),
};

/** Maps one code point (given as a string) as Go's unicode.ToUpper/ToLower/ToTitle. */
export function mapCase(ch: string, mode: Mode): string {
  const c = ch.codePointAt(0)!;
  const cache = caches[mode];
  let out = cache.get(c);
  if (out === undefined) {
    out = String.fromCodePoint(mapRune(c, mode));
    cache.set(c, out);
  }
  return out;
}

const NON_ASCII = /[\u0080-\u{10ffff}]/u;

function mapString(s: string, mode: 'upper' | 'lower'): string {
  if (!NON_ASCII.test(s)) return mode === 'upper' ? s.toUpperCase() : s.toLowerCase();
  let out = '';
  for (const ch of s) out += mapCase(ch, mode);
  return out;
}

/** strings.ToUpper. */
export function toUpper(s: string): string {
  return mapString(s, 'upper');
}

/** strings.ToLower. */
export function toLower(s: string): string {
  return mapString(s, 'lower');
}
