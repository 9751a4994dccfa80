/** Go's `strings` functions whose Unicode rules differ from JavaScript's. */

/** One regex per non-ASCII code point: `/iu` matches by Unicode simple case folding. */
const foldMatchers = new Map<number, RegExp>();
const MAX_FOLD_MATCHERS = 256;

function sameFold(a: number, b: number): boolean {
  if (a === b) return true;
  if (a < 0x80 && b < 0x80) {
    const la = a >= 0x41 && a <= 0x5a ? a + 0x20 : a;
    const lb = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
    return la === lb;
  }
  // Go walks unicode.SimpleFold's orbit; characters in one orbit are exactly those with the
  // same simple case folding (CaseFolding.txt C+S), which is what a /iu regex compares:
  // `k` ~ `K` (U+212A KELVIN SIGN), `s` ~ `ſ`, `σ` ~ `ς` ~ `Σ`, but `i` !~ `İ`.
  let re = foldMatchers.get(a);
  if (re === undefined) {
    if (foldMatchers.size >= MAX_FOLD_MATCHERS) foldMatchers.clear();
    re = new RegExp(`^\\u{${a.toString(16)}}$`, 'iu');
    foldMatchers.set(a, re);
  }
  return re.test(String.fromCodePoint(b));
}

/**
 * `strings.EqualFold`: equal under Unicode simple case folding, compared code point by code
 * point (so `ß` never equals `SS`, whose lengths differ).
 */
export function equalFold(s: string, t: string): boolean {
  if (s === t) return true;
  let i = 0;
  let j = 0;
  while (i < s.length && j < t.length) {
    const a = s.codePointAt(i)!;
    const b = t.codePointAt(j)!;
    if (!sameFold(a, b)) return false;
    i += a > 0xffff ? 2 : 1;
    j += b > 0xffff ? 2 : 1;
  }
  return i === s.length && j === t.length;
}
