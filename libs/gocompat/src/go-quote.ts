/**
 * Go's `strconv.Quote`, which Loki uses to print label values (`{a="1"}`), strings in queries
 * and the values in Go's error texts.
 */

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

/**
 * `strconv.Quote`: double-quoted, with Go escapes for quotes, backslashes, control characters
 * and C1 controls; a lone surrogate (invalid UTF-8 in Go) prints as `\ufffd`.
 */
export function strconvQuote(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const printable =
      c >= 0x20 && c !== 0x22 && c !== 0x5c && c !== 0x7f && !(c >= 0x80 && c < 0xa0);
    // Fast path: printable and not a surrogate, which is nearly every character.
    if (printable && (c < 0xd800 || c > 0xdfff)) continue;
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
