/**
 * Index just past the `[...]` class of a regex source that starts at `start` (handles `[]a]`,
 * `[^]a]`, `[[:alpha:]]` and escapes), or -1 when the class is not closed.
 */
export function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') i += 2;
    else if (c === '[' && source[i + 1] === ':') {
      const end = source.indexOf(':]', i + 2);
      i = end < 0 ? i + 1 : end + 2;
    } else if (c === ']') return i + 1;
    else i++;
  }
  return -1;
}
