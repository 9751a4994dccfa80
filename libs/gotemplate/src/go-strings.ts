/** Go's strings package functions (code-point based where Go is rune based). */

import { mapCase } from './go-case';

const SPACE =
  /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+|[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$/g;

export function trimSpace(s: string): string {
  return s.replace(SPACE, '');
}

function inCutset(cutset: string): (ch: string) => boolean {
  const set = new Set(cutset);
  return (ch) => set.has(ch);
}

export function trimLeft(s: string, cutset: string): string {
  const has = inCutset(cutset);
  const chars = [...s];
  let i = 0;
  while (i < chars.length && has(chars[i])) i++;
  return chars.slice(i).join('');
}

export function trimRight(s: string, cutset: string): string {
  const has = inCutset(cutset);
  const chars = [...s];
  let j = chars.length;
  while (j > 0 && has(chars[j - 1])) j--;
  return chars.slice(0, j).join('');
}

export function trim(s: string, cutset: string): string {
  return trimRight(trimLeft(s, cutset), cutset);
}

export function trimPrefix(s: string, prefix: string): string {
  return prefix !== '' && s.startsWith(prefix) ? s.slice(prefix.length) : s;
}

export function trimSuffix(s: string, suffix: string): string {
  return suffix !== '' && s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s;
}

/** strings.Replace(s, old, new, n); n < 0 replaces all. */
export function replace(s: string, old: string, rep: string, n: number): string {
  if (old === rep || n === 0) return s;
  if (old === '') {
    const chars = [...s];
    let out = '';
    let done = 0;
    for (let i = 0; i <= chars.length; i++) {
      if (n < 0 || done < n) {
        out += rep;
        done++;
      }
      if (i < chars.length) out += chars[i];
    }
    return out;
  }
  if (n < 0) return s.split(old).join(rep);
  let out = '';
  let from = 0;
  for (let k = 0; k < n; k++) {
    const i = s.indexOf(old, from);
    if (i < 0) break;
    out += s.slice(from, i) + rep;
    from = i + old.length;
  }
  return out + s.slice(from);
}

/** strings.Title (deprecated in Go, still what sprig's `title` calls): title-cases each word's first letter. */
export function title(s: string): string {
  let prev = ' ';
  let out = '';
  for (const ch of s) {
    out += isSeparator(prev) ? mapCase(ch, 'title') : ch;
    prev = ch;
  }
  return out;
}

/** Go's unicode.IsSpace outside Latin-1: the White_Space property (no U+FEFF, unlike `\s`). */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]/;

/** strings.Title's word boundaries. */
function isSeparator(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if (c <= 0x7f) return !/[0-9a-zA-Z_]/.test(ch);
  if (/[\p{L}\p{Nd}]/u.test(ch)) return false;
  return GO_SPACE.test(ch);
}
