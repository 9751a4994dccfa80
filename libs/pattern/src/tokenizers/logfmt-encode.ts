// go-logfmt's Encoder, as Loki's logfmt tokenizer joins a pattern's key/value tokens with it.

/** Characters go-logfmt drops from keys, and that make it quote values. */
function isSpecial(code: number): boolean {
  return code <= 0x20 || code === 0x3d || code === 0x22 || code === 0xfffd;
}

function filterKey(key: string): string {
  let out = '';
  for (const ch of key) if (!isSpecial(ch.codePointAt(0) ?? 0)) out += ch;
  return out;
}

function needsQuotes(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (isSpecial(value.charCodeAt(i))) return true;
  return false;
}

const HEX = '0123456789abcdef';

/** go-logfmt's writeQuotedBytes: JSON-like escapes, control bytes as `\u00XX`. */
function quote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const c = ch.charCodeAt(0);
    if (ch === '\\' || ch === '"') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20) out += '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
    else if (c === 0xfffd) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

/**
 * `key=value` pairs joined by spaces, as go-logfmt encodes them; an odd last key gets an empty
 * value. Returns '' when a key is nothing but characters logfmt cannot carry (Loki's Join then
 * returns '' too, and such a pattern is never shown).
 */
export function encodeLogfmt(tokens: readonly string[]): string {
  let out = '';
  for (let i = 0; i < tokens.length; i += 2) {
    const key = filterKey(tokens[i]);
    if (key === '') return '';
    const value = tokens[i + 1] ?? '';
    if (i > 0) out += ' ';
    out += key + '=' + (needsQuotes(value) ? quote(value) : value);
  }
  return out;
}
