/**
 * The key/value scanner of Loki's logfmt decoder (`pkg/logql/log/logfmt/decode.go`), as the
 * distributor's level detection drives it: `next()` is `ScanKeyval`, false at the end of the
 * line or at the first syntax error (an `=` or `"` where Go's decoder refuses it, an empty or
 * invalid UTF-8 key, a bad escape or a missing closing quote). Offsets index the line.
 */
export class LogfmtPairs {
  private pos = 0;
  keyStart = 0;
  keyEnd = 0;
  /** The value, or null for a bare key and for an empty value (`a=`, `a=""`). */
  value: Buffer | string | null = null;

  constructor(private readonly line: Buffer) {}

  eol(): boolean {
    return this.pos >= this.line.length;
  }

  key(): string {
    return this.line.toString('utf8', this.keyStart, this.keyEnd);
  }

  next(): boolean {
    const line = this.line;
    const n = line.length;
    this.value = null;
    while (this.pos < n && line[this.pos] <= 0x20) this.pos++;
    if (this.pos >= n) return false;
    const start = this.pos;
    let multibyte = false;
    for (; this.pos < n; this.pos++) {
      const c = line[this.pos];
      if (c === 0x3d) {
        this.keyStart = start;
        this.keyEnd = this.pos;
        // An empty key or one with invalid UTF-8 (or U+FFFD) is a syntax error.
        if (this.pos === start || (multibyte && !this.validKey())) return false;
        return this.scanValue();
      }
      if (c === 0x22) return false;
      if (c <= 0x20) break;
      if (c >= 0x80) multibyte = true;
    }
    this.keyStart = start;
    this.keyEnd = this.pos;
    return !multibyte || this.validKey();
  }

  private validKey(): boolean {
    return !this.key().includes('\ufffd');
  }

  private scanValue(): boolean {
    const line = this.line;
    const n = line.length;
    this.pos++;
    if (this.pos >= n || line[this.pos] <= 0x20) return true;
    if (line[this.pos] === 0x22) return this.scanQuoted();
    const start = this.pos;
    for (; this.pos < n; this.pos++) {
      const c = line[this.pos];
      if (c === 0x3d || c === 0x22) return false;
      if (c <= 0x20) break;
    }
    this.value = line.subarray(start, this.pos);
    return true;
  }

  private scanQuoted(): boolean {
    const line = this.line;
    const start = this.pos + 1;
    let hasEsc = false;
    for (let i = start; i < line.length; i++) {
      const c = line[i];
      if (c === 0x5c) {
        hasEsc = true;
        i++;
      } else if (c === 0x22) {
        this.pos = i + 1;
        const v = hasEsc ? unquote(line, start, i) : line.subarray(start, i);
        if (v === null) return false;
        this.value = v.length === 0 ? null : v;
        return true;
      }
    }
    this.pos = line.length;
    return false;
  }
}

const SIMPLE_ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x27: "'",
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

/** Go's `strconv.ParseUint(s, 16, 64)` on four bytes: hex digits only, or -1. */
function hex4(b: Buffer, at: number, end: number): number {
  if (at + 4 > end) return -1;
  const s = b.toString('latin1', at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(s) ? parseInt(s, 16) : -1;
}

/**
 * The decoder's `unquoteBytes` on the text between the quotes: JSON escapes plus `\'`, a
 * surrogate pair or else U+FFFD for `\uD8xx`; any other escape makes the value invalid (null).
 */
function unquote(b: Buffer, start: number, end: number): string | null {
  let out = '';
  let chunk = start;
  let i = start;
  while (i < end) {
    if (b[i] !== 0x5c) {
      i++;
      continue;
    }
    out += b.toString('utf8', chunk, i);
    if (i + 1 >= end) return null;
    const simple = SIMPLE_ESCAPES[b[i + 1]];
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (b[i + 1] === 0x75) {
      let code = hex4(b, i + 2, end);
      if (code < 0) return null;
      i += 6;
      if (code >= 0xd800 && code < 0xe000) {
        const low = b[i] === 0x5c && b[i + 1] === 0x75 ? hex4(b, i + 2, end) : -1;
        if (code < 0xdc00 && low >= 0xdc00 && low < 0xe000) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        } else code = 0xfffd;
      }
      out += String.fromCodePoint(code);
    } else return null;
    chunk = i;
  }
  return out + b.toString('utf8', chunk, end);
}
