/**
 * Finds a literal that every match of a regex must contain, so callers can reject most
 * inputs with a byte search before running the regex. Conservative: it only looks at the
 * top-level sequence of the regex and gives up on anything it does not fully understand.
 */
import { classEnd } from './class-end';

const META = new Set(['.', '[', ']', '(', ')', '{', '}', '*', '+', '?', '|', '^', '$', '\\']);
/** Escapes that stand for the character itself. */
const ESCAPED_LITERALS = new Set([...META, '-', '/', '#', '&', '~', ' ', '"', "'", ',', ':', '=']);

/** The longest required literal of at least 2 characters, or undefined. */
export function extractLiteralPrefilter(source: string): string | undefined {
  if (/\(\?[a-zA-Z-]*i/.test(source)) {
    // Case-insensitive matching (anywhere) changes what a literal means; give up.
    return undefined;
  }
  if (/\(\?[a-zA-Z-]*\)/.test(source)) {
    // A flag directive such as `(?)` or `(?s)` is no atom: a quantifier after it repeats the
    // character before it (`aa(?)*` matches "a"), which the scan below would not see.
    return undefined;
  }
  if (hasTopLevelAlternation(source)) return undefined;
  let best = '';
  let current = '';
  let i = 0;
  const endRun = (): void => {
    if (current.length > best.length) best = current;
    current = '';
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (next !== undefined && ESCAPED_LITERALS.has(next)) {
        if (isQuantifier(source[i + 2])) {
          endRun();
          i = skipQuantifier(source, i + 2);
          continue;
        }
        current += next;
        i += 2;
        continue;
      }
      endRun();
      i = skipEscape(source, i);
      continue;
    }
    if (c === '(' || c === '[') {
      // A group or class: whatever it holds is not a plain literal; skip it.
      endRun();
      const end = c === '(' ? skipGroup(source, i) : classEnd(source, i);
      if (end < 0) return undefined;
      i = end;
      if (isQuantifier(source[i])) i = skipQuantifier(source, i);
      continue;
    }
    if (META.has(c)) {
      endRun();
      // A `{n,m}` after an anchor, a dot or an escape: its digits are no literal either.
      i = c === '{' ? skipQuantifier(source, i) : i + 1;
      continue;
    }
    if (isQuantifier(source[i + 1])) {
      // `ab*`: the `b` is optional.
      endRun();
      i = skipQuantifier(source, i + 1);
      continue;
    }
    const cp = source.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    current += ch;
    i += ch.length;
  }
  endRun();
  return best.length >= 2 ? best : undefined;
}

/** Index just past the escape at `i`: `\d`, `\pL`, `\p{Greek}`, `\x41`, `\x{263a}`, `\101`, `\Q...\E`. */
function skipEscape(source: string, i: number): number {
  const kind = source[i + 1];
  if (kind === 'p' || kind === 'P' || kind === 'x') {
    if (source[i + 2] === '{') {
      const close = source.indexOf('}', i + 3);
      return close < 0 ? source.length : close + 1;
    }
    return i + (kind === 'x' ? 4 : 3);
  }
  if (kind === 'Q') {
    const end = source.indexOf('\\E', i + 2);
    return end < 0 ? source.length : end + 2;
  }
  if (kind !== undefined && kind >= '0' && kind <= '7') {
    let j = i + 2;
    while (j < i + 4 && source[j] >= '0' && source[j] <= '7') j++;
    return j;
  }
  return i + 2;
}

function isQuantifier(c: string | undefined): boolean {
  return c === '*' || c === '?' || c === '{' || c === '+';
}

/** Past the quantifier at `i`: one character, or a whole `{n,m}` (its digits are no literal). */
function skipQuantifier(source: string, i: number): number {
  if (source[i] !== '{') return i + 1;
  const end = source.indexOf('}', i);
  return end < 0 ? i + 1 : end + 1;
}

function hasTopLevelAlternation(source: string): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = classEnd(source, i);
      if (end < 0) return true;
      i = end - 1;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

function skipGroup(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = classEnd(source, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
