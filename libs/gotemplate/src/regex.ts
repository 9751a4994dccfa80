import { regexpCompileError } from '@logsvc/gocompat';
import RE2 from 're2';
import { FuncError } from './values';

const cache = new Map<string, RE2>();

/** Compiles a Go RE2 regex (cached); errors read like Go's `error parsing regexp: …`. */
export function compileRegex(pattern: string): RE2 {
  let re = cache.get(pattern);
  if (re === undefined) {
    try {
      re = new RE2(pattern, 'gu');
    } catch (e) {
      throw new FuncError(regexpCompileError(pattern, (e as Error).message));
    }
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

/** Visits matches the way Go's "All" functions do: no empty match right after a match. */
function eachMatch(
  re: RE2,
  s: string,
  visit: (m: RegExpExecArray, accepted: boolean) => void,
): void {
  let pos = 0;
  let prevEnd = -1;
  while (pos <= s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (m === null) break;
    const start = m.index;
    const end = start + m[0].length;
    let accept = true;
    if (end === start) {
      if (start === prevEnd) accept = false;
      // advance one code point past an empty match
      const cp = s.codePointAt(end);
      pos = end + (cp !== undefined && cp > 0xffff ? 2 : 1);
    } else pos = end;
    prevEnd = end;
    visit(m, accept);
  }
}

/** Go's regexp.FindAllStringIndex count. */
export function countMatches(re: RE2, s: string): number {
  let n = 0;
  eachMatch(re, s, (_m, accepted) => {
    if (accepted) n++;
  });
  return n;
}

/** Go's Regexp.Expand of `$1`, `${1}`, `$name`, `${name}`, `$$`. */
function expand(template: string, m: RegExpExecArray): string {
  let out = '';
  let t = template;
  for (;;) {
    const i = t.indexOf('$');
    if (i < 0) break;
    out += t.slice(0, i);
    t = t.slice(i + 1);
    if (t[0] === '$') {
      out += '$';
      t = t.slice(1);
      continue;
    }
    const ext = /^(?:\{([\p{L}\p{Nd}_]+)\}|([\p{L}\p{Nd}_]+))/u.exec(t);
    if (!ext) {
      out += '$';
      continue;
    }
    const name = ext[1] ?? ext[2];
    t = t.slice(ext[0].length);
    let num = /^\d+$/.test(name) && name.length <= 8 ? Number(name) : -1;
    if (name[0] === '0' && name.length > 1) num = -1;
    if (num >= 0) out += m[num] ?? '';
    else out += m.groups?.[name] ?? '';
  }
  return out + t;
}

/** Go's Regexp.ReplaceAllString (literal: ReplaceAllLiteralString). */
export function replaceAll(re: RE2, s: string, repl: string, literal: boolean): string {
  let out = '';
  let lastEnd = 0;
  eachMatch(re, s, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    out += s.slice(lastEnd, start);
    if (end > lastEnd || start === 0) out += literal ? repl : expand(repl, m);
    lastEnd = end;
  });
  return out + s.slice(lastEnd);
}
