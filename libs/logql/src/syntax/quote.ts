/** Go's `strconv.Quote`, which Loki uses to print strings in queries. */

const ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

export function quoteString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const printable =
      c >= 0x20 && c !== 0x22 && c !== 0x5c && c !== 0x7f && !(c >= 0x80 && c < 0xa0);
    const loneSurrogate =
      (c >= 0xd800 && c <= 0xdbff && !isLow(s.charCodeAt(i + 1))) ||
      (c >= 0xdc00 && c <= 0xdfff && !(i > 0 && isHigh(s.charCodeAt(i - 1))));
    if (printable && !loneSurrogate) continue;
    out += s.slice(start, i);
    const e = ESCAPES[s[i]];
    if (e !== undefined) out += e;
    else if (c < 0x80) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (loneSurrogate) out += '\\ufffd';
    else out += '\\u' + c.toString(16).padStart(4, '0');
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
