/**
 * The raw text of a top-level string member of a JSON object, as jsonparser's `Get(line, key)`
 * returns it: the bytes between the quotes, escapes left as they are. Undefined when the line
 * is no object, has no such member, or the member is not a string.
 */
export function topLevelString(line: Buffer, key: string): Buffer | undefined {
  let i = skipSpace(line, 0);
  if (line[i] !== 0x7b) return undefined;
  i = skipSpace(line, i + 1);
  while (i < line.length) {
    if (line[i] === 0x7d || line[i] !== 0x22) return undefined;
    const keyEnd = stringEnd(line, i + 1);
    if (keyEnd < 0) return undefined;
    const matches = line.toString('utf8', i + 1, keyEnd) === key;
    i = skipSpace(line, keyEnd + 1);
    if (line[i] !== 0x3a) return undefined;
    i = skipSpace(line, i + 1);
    const valueStart = i;
    const valueEnd = valueEndAt(line, i);
    if (valueEnd < 0) return undefined;
    if (matches) {
      return line[valueStart] === 0x22 ? line.subarray(valueStart + 1, valueEnd - 1) : undefined;
    }
    i = skipSpace(line, valueEnd);
    if (line[i] !== 0x2c) return undefined;
    i = skipSpace(line, i + 1);
  }
  return undefined;
}

function skipSpace(b: Buffer, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return i;
}

/** Index of the closing quote of the string whose body starts at `i`; -1 if unterminated. */
function stringEnd(b: Buffer, i: number): number {
  for (; i < b.length; i++) {
    if (b[i] === 0x5c) i++;
    else if (b[i] === 0x22) return i;
  }
  return -1;
}

/** Offset just after the value starting at `i`; -1 when it does not end. */
function valueEndAt(b: Buffer, i: number): number {
  const c = b[i];
  if (c === 0x22) {
    const end = stringEnd(b, i + 1);
    return end < 0 ? -1 : end + 1;
  }
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (; i < b.length; i++) {
      const d = b[i];
      if (d === 0x22) {
        i = stringEnd(b, i + 1);
        if (i < 0) return -1;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  while (i < b.length && !isValueEnd(b[i])) i++;
  return i;
}

function isValueEnd(c: number): boolean {
  return (
    c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
  );
}
